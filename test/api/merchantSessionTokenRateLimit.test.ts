// Session-token calls (the hosted page) also spend a budget per merchant across all its sessions,
// so one merchant's many sessions cannot flood the service. RATE_LIMIT_PER_SESSION_PER_MINUTE is 3 and
// RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE 4 here.
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startOfFreshWindow } from '../support/rateLimitWindow';

const PER_SESSION = 3;
const PER_MERCHANT = 4;

let service: TestService;
let replica: RunningApi;

beforeAll(async () => {
  service = await startTestService({
    worker: false,
    env: {
      RATE_LIMIT_PER_SESSION_PER_MINUTE: String(PER_SESSION),
      RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE: String(PER_MERCHANT),
    },
  });
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

beforeEach(() => startOfFreshWindow(service.db.sql));

async function checkout(merchant: TestMerchant): Promise<{ sessionId: string; token: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  expect(created.status).toBe(201);
  const url = new URL(created.body.data?.checkout_url_with_token as string);
  return { sessionId: created.body.data?.session_id as string, token: url.searchParams.get('token') as string };
}

const asPage = (token: string, baseUrl = service.baseUrl) =>
  call(baseUrl, 'GET', '/checkout/sessions/current', { headers: { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' } });

describe('rate limiting session-token calls per merchant', () => {
  it('holds across the sessions of one merchant, with the headers of the policy nearest its end; other merchants and the API key are unaffected', async () => {
    const merchant = await createTestMerchant(service.db.sql);
    const first = await checkout(merchant);
    const second = await checkout(merchant);
    for (let i = 1; i <= PER_SESSION; i += 1) {
      const response = await asPage(first.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe(String(PER_SESSION));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(PER_SESSION - i));
    }
    const last = await asPage(second.token);
    expect(last.status).toBe(200);
    expect(last.headers.get('ratelimit-limit')).toBe(String(PER_MERCHANT));
    expect(last.headers.get('ratelimit-remaining')).toBe('0');

    const refused = await asPage(second.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter));

    const other = await checkout(await createTestMerchant(service.db.sql));
    expect((await asPage(other.token)).status).toBe(200);
    const byKey = await call(service.baseUrl, 'GET', `/checkout/sessions/${second.sessionId}`, { apiKey: merchant.testKey });
    expect(byKey.status).toBe(200);
  });

  it("spends no more of the merchant's budget on a session past its own limit", async () => {
    const merchant = await createTestMerchant(service.db.sql);
    const flooding = await checkout(merchant);
    const quiet = await checkout(merchant);
    const statuses: number[] = [];
    for (let i = 0; i < PER_SESSION + 3; i += 1) statuses.push((await asPage(flooding.token)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await asPage(quiet.token)).status).toBe(200);
    expect((await asPage(quiet.token)).status).toBe(429);
  });

  it('shares one budget across API replicas', async () => {
    const merchant = await createTestMerchant(service.db.sql);
    const first = await checkout(merchant);
    const second = await checkout(merchant);
    const statuses: number[] = [];
    for (const [token, baseUrl] of [
      [first.token, service.baseUrl],
      [second.token, replica.url],
      [first.token, replica.url],
      [second.token, service.baseUrl],
      [second.token, replica.url],
    ] as const)
      statuses.push((await asPage(token, baseUrl)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('starts a fresh budget in the next window', async () => {
    const merchant = await createTestMerchant(service.db.sql);
    const first = await checkout(merchant);
    const second = await checkout(merchant);
    for (let i = 0; i < PER_SESSION; i += 1) await asPage(first.token);
    await asPage(second.token);
    expect((await asPage(second.token)).status).toBe(429);
    // Move the merchant's window one minute into the past, as if the minute had ended.
    await service.db.sql`
      update merchant_session_token_rate_limit_windows set window_start = window_start - interval '1 minute' where merchant_id = ${merchant.merchant.id}`;
    const response = await asPage(second.token);
    expect(response.status).toBe(200);
    // The second session's own third request: its session policy is now the one nearest its end.
    expect(response.headers.get('ratelimit-limit')).toBe(String(PER_SESSION));
    expect(response.headers.get('ratelimit-remaining')).toBe('0');
  });
});
