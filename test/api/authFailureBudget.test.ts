// A budget of failed authentications per client address, so no address can try API keys or
// session tokens without end. AUTH_FAILURES_PER_IP_PER_MINUTE is 3 here; TRUST_PROXY lets each test speak
// from its own address through X-Forwarded-For.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { newSessionId } from '../../domain/wire/ids';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startOfFreshWindow } from '../support/rateLimitWindow';

const BUDGET = 3;
const TOO_MANY = { error: 'Too many failed authentications from this address' };
const BAD_KEY = 'mk_test_ThisKeyWasNeverIssuedByTheServiceAtAll';

let service: TestService;
/** A second API process on the same database, with a clock the tests move and its log kept. */
let replica: RunningApi;
let clockOffsetMs = 0;
const replicaLog: Record<string, unknown>[] = [];
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({
    worker: false,
    env: { AUTH_FAILURES_PER_IP_PER_MINUTE: String(BUDGET), TRUST_PROXY: '127.0.0.1/32,::1' },
  });
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      replicaLog.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  replica = await startApiServer(
    {
      config: service.config,
      sql: service.db.sql,
      temporal: service.temporal,
      logger: pino({ level: 'info' }, logStream),
      registry: service.registry,
      offer: service.offer,
      now: () => new Date(Date.now() + clockOffsetMs),
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

beforeEach(() => startOfFreshWindow(service.db.sql));

/** A read of an unknown session from `ip`: 404 once the key passes, 403 when it is refused. */
const withKey = (baseUrl: string, ip: string, apiKey: string) =>
  call(baseUrl, 'GET', `/checkout/sessions/${newSessionId()}`, {
    headers: { 'x-service-user-type': 'checkout', 'x-api-key': apiKey, 'x-forwarded-for': ip },
  });

const withToken = (baseUrl: string, ip: string, token: string) =>
  call(baseUrl, 'GET', '/checkout/sessions/current', {
    headers: { 'x-service-user-type': 'checkout', authorization: `Bearer ${token}`, 'x-forwarded-for': ip },
  });

async function sessionToken(): Promise<{ sessionId: string; token: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  expect(created.status).toBe(201);
  const url = new URL(created.body.data?.checkout_url_with_token as string);
  return { sessionId: created.body.data?.session_id as string, token: url.searchParams.get('token') as string };
}

const failuresCounted = async (ip: string) =>
  (await service.db.sql<{ n: number }[]>`select coalesce(sum(request_count), 0)::int as n from auth_failure_windows where ip = ${ip}`)[0]!
    .n;

describe('budget of failed authentications per client address', () => {
  it('answers 429 with Retry-After once an address has spent its budget on bad keys; another address is unaffected', async () => {
    for (let i = 0; i < BUDGET; i += 1) expect((await withKey(service.baseUrl, '203.0.113.1', BAD_KEY)).status).toBe(403);
    const refused = await withKey(service.baseUrl, '203.0.113.1', BAD_KEY);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const other = await withKey(service.baseUrl, '203.0.113.2', BAD_KEY);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: 'Invalid API key' });
    expect((await withKey(service.baseUrl, '203.0.113.2', merchant.testKey)).status).toBe(404);
  });

  it('no longer looks up the keys of a blocked address, except one this replica saw authenticate', async () => {
    const ip = '203.0.113.3';
    const seen = await createTestMerchant(service.db.sql);
    expect((await withKey(service.baseUrl, '198.51.100.3', seen.testKey)).status).toBe(404);
    for (let i = 0; i <= BUDGET; i += 1) await withKey(service.baseUrl, ip, BAD_KEY);
    for (let i = 0; i < 5; i += 1) expect((await withKey(service.baseUrl, ip, BAD_KEY)).status).toBe(429);
    // Nothing more was counted: the refusals above did no database work.
    expect(await failuresCounted(ip)).toBe(BUDGET + 1);

    const unseen = await createTestMerchant(service.db.sql);
    const waiting = await withKey(service.baseUrl, ip, unseen.testKey);
    expect(waiting.status).toBe(429);
    expect(waiting.body).toEqual(TOO_MANY);
    expect((await withKey(service.baseUrl, ip, seen.testKey)).status).toBe(404);
  });

  it('counts forged session tokens against the same budget; a genuine token is served even from a blocked address', async () => {
    const ip = '203.0.113.4';
    const { sessionId, token } = await sessionToken();
    expect((await withKey(service.baseUrl, ip, BAD_KEY)).status).toBe(403);
    for (let i = 1; i < BUDGET; i += 1) {
      const forged = await withToken(service.baseUrl, ip, `${sessionId}.forged`);
      expect(forged.status).toBe(401);
      expect(forged.body).toEqual({ error: 'Invalid or expired session token' });
    }
    const refused = await withToken(service.baseUrl, ip, `${sessionId}.forged`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // select-payment takes either credential and refuses a forged token from a blocked address the same way.
    const selecting = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      headers: { 'x-service-user-type': 'checkout', authorization: `Bearer ${sessionId}.forged`, 'x-forwarded-for': ip },
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(selecting.status).toBe(429);
    expect(selecting.body).toEqual(TOO_MANY);

    expect((await withToken(service.baseUrl, ip, token)).status).toBe(200);
  });

  it('does not count a genuine token whose session has expired', async () => {
    const ip = '203.0.113.5';
    const { sessionId, token } = await sessionToken();
    await service.db.sql`update sessions set expires_at = now() - interval '1 minute' where id = ${sessionId}`;
    for (let i = 0; i <= BUDGET; i += 1) expect((await withToken(service.baseUrl, ip, token)).status).toBe(401);
    expect(await failuresCounted(ip)).toBe(0);
  });

  it('shares one budget across API replicas', async () => {
    const ip = '203.0.113.6';
    const statuses: number[] = [];
    for (const baseUrl of [service.baseUrl, replica.url, service.baseUrl, replica.url, service.baseUrl])
      statuses.push((await withKey(baseUrl, ip, BAD_KEY)).status);
    expect(statuses).toEqual([403, 403, 403, 429, 429]);
  });

  it('starts a fresh budget in the next window', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i <= BUDGET; i += 1) await withKey(replica.url, ip, BAD_KEY);
    expect((await withKey(replica.url, ip, BAD_KEY)).status).toBe(429);
    // The minute ends: for the database (its window moved one minute back) and for the replica's clock.
    await service.db.sql`update auth_failure_windows set window_start = window_start - interval '1 minute' where ip = ${ip}`;
    clockOffsetMs += 60_000;
    expect((await withKey(replica.url, ip, BAD_KEY)).status).toBe(403);
    expect(await failuresCounted(ip)).toBe(1);
  });

  it('logs the first refusal of an address in a window once, without the key', async () => {
    const ip = '203.0.113.8';
    const before = replicaLog.length;
    for (let i = 0; i < BUDGET + 4; i += 1) await withKey(replica.url, ip, BAD_KEY);
    const lines = replicaLog.slice(before);
    const exceeded = lines.filter((line) => line.msg === 'failed-authentication budget of a client address exceeded');
    expect(exceeded).toHaveLength(1);
    expect(exceeded[0]).toMatchObject({ ip, limit: BUDGET });
    expect(JSON.stringify(lines)).not.toContain(BAD_KEY);
  });
});
