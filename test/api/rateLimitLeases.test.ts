// An API replica numbers a key's requests from leases of the shared count, one upsert per lease of
// RATE_LIMIT_PER_MINUTE / 100 requests. Across replicas the limit holds within the documented tolerance: never
// more than the limit served in a window, at most (replicas − 1) × (lease − 1) refused short of it.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { newSessionId } from '../../domain/wire/ids';
import { leaseSize } from '../../domain/security/requestLeases';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const LIMIT = 300;
const LEASE = leaseSize(LIMIT);
const REPLICAS = 2;

let service: TestService;
let replica: RunningApi;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
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

describe('rate limiting from leases across replicas', () => {
  it('serves at most the limit in a window, and no fewer than the tolerance allows', async () => {
    // Never start in the last seconds of a database-clock minute, so that no count is split across two windows.
    const [row] = await service.db.sql<{ second: number }[]>`select extract(second from now())::float8 as second`;
    if (row!.second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - row!.second) * 1000));
    const bases = [service.baseUrl, replica.url];
    const statuses: number[] = [];
    // Eight clients at a time, spread over both replicas, until well past the limit.
    const client = async (index: number) => {
      for (let i = index; i < LIMIT + 40; i += 8) {
        statuses.push(
          (await call(bases[i % REPLICAS]!, 'GET', `/checkout/sessions/${newSessionId()}`, { apiKey: merchant.testKey })).status,
        );
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, index) => client(index)));
    const served = statuses.filter((s) => s === 404).length;
    expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(LIMIT);
    expect(served).toBeGreaterThanOrEqual(LIMIT - (REPLICAS - 1) * (LEASE - 1));
    // One upsert per lease: the shared count moved in steps of a lease, not of a request.
    const [window] = await service.db.sql<{ request_count: number }[]>`
      select request_count from rate_limit_windows where api_key_id = (select id from api_keys where merchant_id = ${merchant.merchant.id} and mode = 'test')`;
    expect(window!.request_count % LEASE).toBe(0);
  });
});
