// Rate limiting per API key (docs/api.md#rate-limits-and-ip-allowlists: the same limits in test and live), counted in Postgres so that
// several API replicas share one budget. RATE_LIMIT_PER_MINUTE is 3 here.
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { newSessionId } from '../../domain/wire/ids';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const LIMIT = 3;

let service: TestService;
let replica: RunningApi;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  // A second API process on the same database, as a second replica behind a load balancer would be.
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
});
afterAll(async () => {
  await replica?.close();
  await service?.stop();
});

beforeEach(async () => {
  // Fresh keys per test, and never start a test in the last seconds of a database-clock minute, so
  // that no count is split across two windows.
  merchant = await createTestMerchant(service.db.sql);
  const [row] = await service.db.sql<{ second: number }[]>`select extract(second from now())::float8 as second`;
  if (row!.second > 55) await new Promise((resolve) => setTimeout(resolve, (61 - row!.second) * 1000));
});

const read = (baseUrl: string, apiKey: string) => call(baseUrl, 'GET', `/checkout/sessions/${newSessionId()}`, { apiKey });

describe('rate limiting per API key', () => {
  it('answers with RateLimit headers, then 429 with Retry-After once the budget is spent', async () => {
    for (let i = 1; i <= LIMIT; i += 1) {
      const response = await read(service.baseUrl, merchant.testKey);
      expect(response.status).toBe(404);
      expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i));
      const reset = Number(response.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    const refused = await read(service.baseUrl, merchant.testKey);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter));
  });

  it('limits POST requests before they do anything', async () => {
    for (let i = 0; i < LIMIT; i += 1) await read(service.baseUrl, merchant.testKey);
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: {
        merchant_id: merchant.merchant.id,
        transaction_id: 'order-limited',
        amount_usd: 5,
        webhook_url: 'https://merchant.example/hook',
      },
    });
    expect(response.status).toBe(429);
    const [row] = await service.db.sql<
      { count: number }[]
    >`select count(*)::int as count from transactions where ext_transaction_id = 'order-limited'`;
    expect(row!.count).toBe(0);
  });

  it('shares one budget across API replicas', async () => {
    const statuses: number[] = [];
    for (const baseUrl of [service.baseUrl, replica.url, service.baseUrl, replica.url])
      statuses.push((await read(baseUrl, merchant.testKey)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });

  it('gives every key its own budget, with the same limit for test and live keys', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await read(service.baseUrl, merchant.testKey)).status).toBe(404);
    expect((await read(service.baseUrl, merchant.testKey)).status).toBe(429);
    for (let i = 0; i < LIMIT; i += 1) expect((await read(service.baseUrl, merchant.liveKey)).status).toBe(404);
    expect((await read(service.baseUrl, merchant.liveKey)).status).toBe(429);
  });

  it('starts a fresh budget in the next window', async () => {
    for (let i = 0; i <= LIMIT; i += 1) await read(service.baseUrl, merchant.testKey);
    expect((await read(service.baseUrl, merchant.testKey)).status).toBe(429);
    // Move the key's window one minute into the past, as if the minute had ended.
    await service.db.sql`
      update rate_limit_windows set window_start = window_start - interval '1 minute'
      where api_key_id = (select id from api_keys where merchant_id = ${merchant.merchant.id} and mode = 'test')`;
    const response = await read(service.baseUrl, merchant.testKey);
    expect(response.status).toBe(404);
    expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('does not count requests refused before authentication completes', async () => {
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const response = await call(service.baseUrl, 'GET', `/checkout/sessions/${newSessionId()}`, {
        headers: { 'x-api-key': merchant.testKey, 'x-service-user-type': 'admin' },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    const response = await read(service.baseUrl, merchant.testKey);
    expect(response.status).toBe(404);
    expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
  });
});
