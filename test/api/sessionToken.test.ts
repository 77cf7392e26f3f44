// Session-token authentication of the hosted-page endpoints (docs/api.md#authentication, docs/api.md#refusals): every refusal, and a token
// reaching nothing beyond its own session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSessionToken } from '../../domain/security/sessionToken';
import { createBankAccount, createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const ENDPOINTS = ['/checkout/sessions/bank-currencies', '/checkout/sessions/bank-details'];

let service: TestService;
let merchant: TestMerchant;
let sessionId: string;
let token: string;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchant = await createTestMerchant(service.db.sql);
  await createBankAccount(service.db.sql, merchant.merchant.id, 'EUR');
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  sessionId = created.body.data?.session_id as string;
  token = new URL(created.body.data?.checkout_url_with_token as string).searchParams.get('token') as string;
});
afterAll(() => service?.stop());

const get = (path: string, headers: Record<string, string>) => call(service.baseUrl, 'GET', path, { headers });

describe('session-token endpoints', () => {
  it('accept the token in the Authorization header (any case of Bearer) or the token query parameter', async () => {
    for (const path of ENDPOINTS) {
      expect((await get(path, { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' })).status, path).toBe(200);
      expect((await get(path, { authorization: `bearer ${token}`, 'x-service-user-type': 'checkout' })).status, path).toBe(200);
      expect((await get(`${path}?token=${encodeURIComponent(token)}`, { 'x-service-user-type': 'checkout' })).status, path).toBe(200);
    }
  });

  it('forbid caching of every answer a token or an API key gets, refusals included (Cache-Control: no-store)', async () => {
    const byToken = [...ENDPOINTS, '/checkout/sessions/current'];
    for (const path of byToken) {
      const answered = await get(path, { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' });
      expect([answered.status, answered.headers.get('cache-control')], path).toEqual([200, 'no-store']);
      expect(
        (await get(path, { authorization: 'Bearer forged', 'x-service-user-type': 'checkout' })).headers.get('cache-control'),
        path,
      ).toBe('no-store');
    }
    const byKey = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    expect([byKey.status, byKey.headers.get('cache-control')]).toEqual([200, 'no-store']);
    expect((await call(service.baseUrl, 'GET', '/checkout/tokens', { apiKey: merchant.testKey })).headers.get('cache-control')).toBe(
      'no-store',
    );
  });

  it('answer 401 Missing session token without one, even with an API key', async () => {
    for (const path of ENDPOINTS) {
      const withoutToken: Record<string, string>[] = [
        { 'x-service-user-type': 'checkout' },
        { 'x-service-user-type': 'checkout', 'x-api-key': merchant.testKey },
        { authorization: 'Basic abc', 'x-service-user-type': 'checkout' },
      ];
      for (const headers of withoutToken) {
        const response = await get(path, headers);
        expect(response.status, path).toBe(401);
        expect(response.body).toEqual({ error: 'Missing session token' });
      }
      expect((await get(`${path}?token=`, { 'x-service-user-type': 'checkout' })).body).toEqual({ error: 'Missing session token' });
    }
  });

  it('answer 401 when the user-type header is missing and 403 when it is not checkout', async () => {
    for (const path of ENDPOINTS) {
      expect(await get(path, { authorization: `Bearer ${token}` })).toMatchObject({
        status: 401,
        body: { error: 'Missing x-service-user-type header' },
      });
      expect(await get(path, { authorization: `Bearer ${token}`, 'x-service-user-type': 'merchant' })).toMatchObject({
        status: 403,
        body: { error: 'x-service-user-type must be checkout' },
      });
    }
  });

  it('answer 401 Invalid or expired session token for forged, foreign, unknown and malformed tokens', async () => {
    const forged = [
      'garbage',
      `${sessionId}.`,
      `${sessionId}.AAAA`,
      issueSessionToken(sessionId, 'another-secret-of-at-least-thirty-two-characters'),
      issueSessionToken('cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', service.config.sessionTokenSecret!),
      `${token}.extra`,
      merchant.testKey,
    ];
    for (const path of ENDPOINTS) {
      for (const bad of forged) {
        const response = await get(path, { authorization: `Bearer ${bad}`, 'x-service-user-type': 'checkout' });
        expect(response.status, `${path} ${bad}`).toBe(401);
        expect(response.body).toEqual({ error: 'Invalid or expired session token' });
      }
    }
  });

  it('answer 401 Invalid or expired session token once the session has expired', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id),
    });
    const expiring = created.body.data?.session_id as string;
    const expiringToken = issueSessionToken(expiring, service.config.sessionTokenSecret!);
    const headers = { authorization: `Bearer ${expiringToken}`, 'x-service-user-type': 'checkout' };
    expect((await get(ENDPOINTS[0] as string, headers)).status).toBe(200);
    await service.db.sql`update sessions set expires_at = now() - interval '1 second' where id = ${expiring}`;
    for (const path of ENDPOINTS) {
      expect(await get(path, headers)).toMatchObject({ status: 401, body: { error: 'Invalid or expired session token' } });
    }
  });

  it('is not a credential for merchant API endpoints', async () => {
    const response = await get(`/checkout/sessions/${sessionId}`, { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' });
    expect(response).toMatchObject({ status: 401, body: { error: 'Missing API key: send it in the x-api-key header' } });
  });

  it('never reads the session from the path', async () => {
    const response = await get(`/checkout/sessions/${sessionId}/bank-details`, {
      authorization: `Bearer ${token}`,
      'x-service-user-type': 'checkout',
    });
    expect(response.status).toBe(404);
  });
});
