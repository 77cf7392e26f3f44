// POST /checkout/sessions/{session_id}/simulate (docs/api.md#simulate): test keys outside production only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_STATUSES } from '../../domain/wire/status';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let production: TestService;
let alice: TestMerchant;
let bob: TestMerchant;
let testSession: string;
let liveSession: string;

beforeAll(async () => {
  [service, production] = await Promise.all([startTestService(), startTestService({ worker: false, env: { APP_ENV: 'production' } })]);
  alice = await createTestMerchant(service.db.sql, { name: 'Alice' });
  bob = await createTestMerchant(service.db.sql, { name: 'Bob' });
  const create = async (apiKey: string) => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey, body: sessionRequest(alice.merchant.id) });
    expect(created.status).toBe(201);
    return created.body.data?.session_id as string;
  };
  testSession = await create(alice.testKey);
  liveSession = await create(alice.liveKey);
});
afterAll(() => Promise.all([service?.stop(), production?.stop()]));

const simulate = (sessionId: string, body: unknown, apiKey = alice.testKey, on = service) =>
  call(on.baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, { apiKey, body });

describe('simulate', () => {
  it('forces a test session into the given status through the workflow (needs the workflow side of simulateUpdate)', async () => {
    const response = await simulate(testSession, { status: 'confirming' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { session_id: testSession, status: 'confirming' } });
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${testSession}`, { apiKey: alice.testKey });
    expect(got.body.data?.status).toBe('confirming');
  });

  it('answers 409 once the session workflow has finished', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: alice.testKey,
      body: sessionRequest(alice.merchant.id),
    });
    const sessionId = created.body.data?.session_id as string;
    await service.temporal.workflow.getHandle(sessionId).terminate('test: workflow finished');
    const response = await simulate(sessionId, { status: 'completed' });
    expect(response).toMatchObject({ status: 409, body: { error: `Session ${sessionId} is pending and no longer accepts changes` } });
  });

  it('refuses live keys with 403, whatever the session', async () => {
    for (const sessionId of [liveSession, testSession, 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const response = await simulate(sessionId, { status: 'completed' }, alice.liveKey);
      expect(response).toMatchObject({
        status: 403,
        body: { error: 'simulate is not available with live keys: live sessions change status only through real payments' },
      });
    }
    const [row] = await service.db.sql<{ status: string }[]>`select status from sessions where id = ${liveSession}`;
    expect(row?.status).toBe('pending');
  });

  it('refuses every call in production with 403, before looking at the body', async () => {
    const m = await createTestMerchant(production.db.sql);
    for (const body of [{ status: 'completed' }, { status: 'nope' }, undefined]) {
      const response = await simulate('cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', body, m.testKey, production);
      expect(response).toMatchObject({ status: 403, body: { error: 'simulate is not available in production' } });
    }
  });

  it("answers 404 for unknown sessions, another merchant's and the live session seen with a test key", async () => {
    for (const [sessionId, apiKey] of [
      ['cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', alice.testKey],
      [testSession, bob.testKey],
      [liveSession, alice.testKey],
    ] as const) {
      const response = await simulate(sessionId, { status: 'completed' }, apiKey);
      expect(response).toMatchObject({ status: 404, body: { error: 'Session not found' } });
    }
  });

  it.each([
    [{ status: 'paid' }, [`status: Invalid enum value. Expected ${SESSION_STATUSES.map((s) => `'${s}'`).join(' | ')}, received 'paid'`]],
    [{}, ['status: Required']],
    [{ status: 'completed', extra: 1 }, ['extra: Unrecognized field']],
  ])('validates the body %j', async (body, errors) => {
    const response = await simulate(testSession, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Validation failed', details: { validation_errors: errors } });
  });

  it('requires the API key and user-type headers', async () => {
    const path = `/checkout/sessions/${testSession}/simulate`;
    const noKey = await call(service.baseUrl, 'POST', path, {
      headers: { 'x-service-user-type': 'checkout' },
      body: { status: 'completed' },
    });
    expect(noKey).toMatchObject({ status: 401, body: { error: 'Missing API key: send it in the x-api-key header' } });
    const noType = await call(service.baseUrl, 'POST', path, { headers: { 'x-api-key': alice.testKey }, body: { status: 'completed' } });
    expect(noType).toMatchObject({ status: 401, body: { error: 'Missing x-service-user-type header' } });
  });
});
