// Session-token calls (the hosted page) spend a budget per checkout session, apart from the merchant's API-key
// budget: a leaked checkout URL cannot hammer the service, and the merchant's own calls are not starved by it.
// RATE_LIMIT_PER_SESSION_PER_MINUTE is 3 here.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startOfFreshWindow } from '../support/rateLimitWindow';

const LIMIT = 3;

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false, env: { RATE_LIMIT_PER_SESSION_PER_MINUTE: String(LIMIT) } });
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

beforeEach(() => startOfFreshWindow(service.db.sql));

async function checkout(): Promise<{ sessionId: string; token: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  expect(created.status).toBe(201);
  const url = new URL(created.body.data?.checkout_url_with_token as string);
  return { sessionId: created.body.data?.session_id as string, token: url.searchParams.get('token') as string };
}

const asPage = (token: string) =>
  call(service.baseUrl, 'GET', '/checkout/sessions/current', {
    headers: { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' },
  });

describe('rate limiting per checkout session', () => {
  it('answers the page with RateLimit headers, then 429 with Retry-After; other sessions and the API key are unaffected', async () => {
    const busy = await checkout();
    const quiet = await checkout();
    for (let i = 1; i <= LIMIT; i += 1) {
      const response = await asPage(busy.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i));
    }
    const refused = await asPage(busy.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await asPage(quiet.token)).status).toBe(200);
    const byKey = await call(service.baseUrl, 'GET', `/checkout/sessions/${busy.sessionId}`, { apiKey: merchant.testKey });
    expect(byKey.status).toBe(200);
  });

  it('a forged token is refused before it counts against anything', async () => {
    const { sessionId } = await checkout();
    for (let i = 0; i < LIMIT + 2; i += 1) expect((await asPage(`${sessionId}.forged`)).status).toBe(401);
    const [row] = await service.db.sql<
      { n: number }[]
    >`select count(*)::int as n from session_rate_limit_windows where session_id = ${sessionId}`;
    expect(row?.n).toBe(0);
  });
});
