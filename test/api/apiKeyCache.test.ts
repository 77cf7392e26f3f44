// API replicas cache key lookups, and every write to a key row reaches every replica's cache through
// Postgres NOTIFY (db/migrations/0001_baseline.sql), so a revoked key, or one whose allowlist changed, is refused within a second
// on each of them. Two API servers on one database stand for two replicas behind a load balancer.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyCache } from '../../api/apiKeyCache';
import { startApiServer, type RunningApi } from '../../api/server';
import { createApiKey, revokeApiKey, setApiKeyAllowedIps } from '../../db/repositories/apiKeys';
import { hashApiKey } from '../../domain/security/apiKeys';
import { newSessionId } from '../../domain/wire/ids';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const WITHIN_MS = 1_000;

let service: TestService;
let replica: RunningApi;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  replica = await startApiServer(
    {
      config: service.config,
      sql: service.db.sql,
      temporal: service.temporal,
      logger: pino({ level: 'silent' }),
      registry: service.registry,
      offer: service.offer,
    },
    '127.0.0.1',
    0,
  );
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(async () => {
  await replica?.close();
  await service?.stop();
});

/** 404 once authenticated (the session does not exist), 403 when the key is refused. */
const status = async (baseUrl: string, apiKey: string) =>
  (await call(baseUrl, 'GET', `/checkout/sessions/${newSessionId()}`, { apiKey })).status;

/** Polls until `baseUrl` answers `expected` for the key; how long that took, or undefined when it took over a second. */
async function answersWithin(baseUrl: string, apiKey: string, expected: number, since: number): Promise<number | undefined> {
  for (;;) {
    const answered = await status(baseUrl, apiKey);
    const elapsed = performance.now() - since;
    if (answered === expected) return elapsed <= WITHIN_MS ? elapsed : undefined;
    if (elapsed > WITHIN_MS) return undefined;
  }
}

describe('API key cache across replicas', () => {
  it('refuses a revoked key within a second on every replica', async () => {
    const key = await createApiKey(service.db.sql, merchant.merchant.id, 'test');
    // Both replicas serve it, so both hold it in their caches.
    expect([await status(service.baseUrl, key.raw), await status(replica.url, key.raw)]).toEqual([404, 404]);
    const revokedAt = performance.now();
    expect(await revokeApiKey(service.db.sql, key.id)).toBe(true);
    expect(await answersWithin(replica.url, key.raw, 403, revokedAt)).toBeDefined();
    expect(await answersWithin(service.baseUrl, key.raw, 403, revokedAt)).toBeDefined();
  });

  it('applies an allowlist change within a second on every replica, both ways', async () => {
    const key = await createApiKey(service.db.sql, merchant.merchant.id, 'test');
    expect([await status(service.baseUrl, key.raw), await status(replica.url, key.raw)]).toEqual([404, 404]);
    const restrictedAt = performance.now();
    await setApiKeyAllowedIps(service.db.sql, key.id, ['203.0.113.0/24']);
    expect(await answersWithin(replica.url, key.raw, 403, restrictedAt)).toBeDefined();
    expect(await answersWithin(service.baseUrl, key.raw, 403, restrictedAt)).toBeDefined();
    const liftedAt = performance.now();
    await setApiKeyAllowedIps(service.db.sql, key.id, null);
    expect(await answersWithin(replica.url, key.raw, 404, liftedAt)).toBeDefined();
    expect(await answersWithin(service.baseUrl, key.raw, 404, liftedAt)).toBeDefined();
  });

  it('learns of a revocation by notification alone, however long its entries live', async () => {
    // The clock never moves, so no entry ever expires: only the notification can drop the cached key.
    const cache = createApiKeyCache(service.db.sql, () => new Date(0));
    await cache.listen();
    try {
      const key = await createApiKey(service.db.sql, merchant.merchant.id, 'test');
      const hash = hashApiKey(key.raw);
      expect((await cache.find(hash))?.revokedAt).toBeNull();
      await service.db.sql`update api_keys set revoked_at = now() where id = ${key.id}`;
      while (!(await cache.find(hash))?.revokedAt) await new Promise((resolve) => setImmediate(resolve));
      expect((await cache.find(hash))?.revokedAt).toBeInstanceOf(Date);
    } finally {
      await cache.close();
    }
  });
});
