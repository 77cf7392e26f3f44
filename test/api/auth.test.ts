// docs/api.md#authentication and docs/api.md#refusals: which credentials reach which sessions, and what a refusal looks like.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey, createApiKey } from '../../db/repositories/apiKeys';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let alice: TestMerchant;
let bob: TestMerchant;
let aliceTestSession: string;
let aliceLiveSession: string;

beforeAll(async () => {
  service = await startTestService();
  alice = await createTestMerchant(service.db.sql, { name: 'Alice' });
  bob = await createTestMerchant(service.db.sql, { name: 'Bob' });
  const create = async (apiKey: string, transactionId: string) => {
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey,
      body: sessionRequest(alice.merchant.id, { transaction_id: transactionId }),
    });
    expect(response.status).toBe(201);
    return response.body.data?.session_id as string;
  };
  aliceTestSession = await create(alice.testKey, 'shared-order-id');
  aliceLiveSession = await create(alice.liveKey, 'shared-order-id');
});
afterAll(() => service?.stop());

const endpoints = () => [
  { method: 'POST', path: '/checkout/sessions', body: sessionRequest(alice.merchant.id) },
  { method: 'GET', path: `/checkout/sessions/${aliceTestSession}` },
  { method: 'GET', path: '/checkout/transactions/shared-order-id?by_ext_transaction_id=true' },
];

describe('merchant API authentication', () => {
  it('answers 401 when the API key is missing, on every endpoint', async () => {
    for (const { method, path, body } of endpoints()) {
      const response = await call(service.baseUrl, method, path, { headers: { 'x-service-user-type': 'checkout' }, body });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ error: 'Missing API key: send it in the x-api-key header' });
    }
  });

  it('answers 401 when the user-type header is missing, on every endpoint', async () => {
    for (const { method, path, body } of endpoints()) {
      const response = await call(service.baseUrl, method, path, { headers: { 'x-api-key': alice.testKey }, body });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ error: 'Missing x-service-user-type header' });
    }
  });

  it('answers 403 for a user type other than checkout', async () => {
    const response = await call(service.baseUrl, 'GET', `/checkout/sessions/${aliceTestSession}`, {
      headers: { 'x-api-key': alice.testKey, 'x-service-user-type': 'admin' },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'x-service-user-type must be checkout' });
  });

  it('answers 403 with one message for unknown, malformed and revoked keys', async () => {
    const revoked = await createApiKey(service.db.sql, alice.merchant.id, 'test');
    expect(await revokeApiKey(service.db.sql, revoked.id)).toBe(true);
    for (const apiKey of ['mk_test_doesnotexist', 'not-a-key', `mk_live_${alice.testKey.slice(8)}`, revoked.raw]) {
      for (const { method, path, body } of endpoints()) {
        const response = await call(service.baseUrl, method, path, { apiKey, body });
        expect(response.status, `${apiKey} ${method} ${path}`).toBe(403);
        expect(response.body).toEqual({ error: 'Invalid API key' });
      }
    }
  });

  it('answers 403 when a key creates a session for another merchant', async () => {
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: bob.testKey,
      body: sessionRequest(alice.merchant.id),
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'This API key does not belong to merchant_id' });
  });

  it("hides another merchant's sessions and transactions as not found", async () => {
    const session = await call(service.baseUrl, 'GET', `/checkout/sessions/${aliceTestSession}`, { apiKey: bob.testKey });
    expect(session.status).toBe(404);
    expect(session.body).toEqual({ error: 'Session not found' });
    const transaction = await call(service.baseUrl, 'GET', '/checkout/transactions/shared-order-id?by_ext_transaction_id=true', {
      apiKey: bob.testKey,
    });
    expect(transaction.status).toBe(404);
  });

  it('keeps test and live data apart: each key sees only its own mode', async () => {
    const testReadsLive = await call(service.baseUrl, 'GET', `/checkout/sessions/${aliceLiveSession}`, { apiKey: alice.testKey });
    const liveReadsTest = await call(service.baseUrl, 'GET', `/checkout/sessions/${aliceTestSession}`, { apiKey: alice.liveKey });
    expect([testReadsLive.status, liveReadsTest.status]).toEqual([404, 404]);

    const testOwn = await call(service.baseUrl, 'GET', '/checkout/transactions/shared-order-id?by_ext_transaction_id=true', {
      apiKey: alice.testKey,
    });
    const liveOwn = await call(service.baseUrl, 'GET', '/checkout/transactions/shared-order-id?by_ext_transaction_id=true', {
      apiKey: alice.liveKey,
    });
    expect(testOwn.body.data?.session_id).toBe(aliceTestSession);
    expect(liveOwn.body.data?.session_id).toBe(aliceLiveSession);
  });

  it('refuses a plain-http webhook_url for a live key but accepts it for a test key', async () => {
    const body = sessionRequest(alice.merchant.id, { webhook_url: 'http://merchant.example/hook' });
    const live = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: alice.liveKey, body });
    expect(live.status).toBe(400);
    expect(live.body).toEqual({ error: 'Validation failed', details: { validation_errors: ['webhook_url: Must use https'] } });
    const test = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: alice.testKey, body });
    expect(test.status).toBe(201);
  });
});
