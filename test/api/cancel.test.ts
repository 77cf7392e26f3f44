// POST /checkout/sessions/{session_id}/cancel: the merchant ends a session nobody has paid; the workflow
// decides, and refuses with 409 once a deposit exists or the session is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutSession } from '../../domain/wire/session';
import type { DepositObservation } from '../../domain/session/deposit';
import { depositDetectedSignal, getStateQuery } from '../../workflows/messages';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { indexerRecords } from '../support/workflowHarness';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  service = await startTestService();
  alice = await createTestMerchant(service.db.sql, { name: 'Alice' });
  bob = await createTestMerchant(service.db.sql, { name: 'Bob' });
});
afterAll(() => service?.stop());

async function createSession(apiKey = alice.testKey): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey, body: sessionRequest(alice.merchant.id) });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

const cancel = (sessionId: string, body?: unknown, apiKey = alice.testKey) =>
  call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/cancel`, { apiKey, ...(body === undefined ? {} : { body }) });

async function readStatus(sessionId: string): Promise<string | undefined> {
  const [row] = await service.db.sql<{ status: string }[]>`select status from sessions where id = ${sessionId}`;
  return row?.status;
}

describe('cancel', () => {
  it('cancels a pending session and answers it as GET /checkout/sessions/{id} then shows it', async () => {
    const sessionId = await createSession();
    const response = await cancel(sessionId, { reason: 'customer left' });
    expect(response.status).toBe(200);
    const data = CheckoutSession.parse(response.body.data);
    expect(data).toMatchObject({ session_id: sessionId, status: 'cancelled' });
    expect(await readStatus(sessionId)).toBe('cancelled');
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: alice.testKey });
    expect(got.body.data).toEqual(data);
    const state = await service.temporal.workflow.getHandle(sessionId).query(getStateQuery);
    expect(state.transitions.at(-1)).toMatchObject({ status: 'cancelled', reason: 'cancelled by merchant: customer left' });
  });

  it('needs no body', async () => {
    const sessionId = await createSession();
    const response = await cancel(sessionId);
    expect(response).toMatchObject({ status: 200, body: { data: { session_id: sessionId, status: 'cancelled' } } });
  });

  it('answers 409 with the reason for a session already cancelled, and changes nothing', async () => {
    const sessionId = await createSession();
    expect((await cancel(sessionId)).status).toBe(200);
    const again = await cancel(sessionId, { reason: 'twice' });
    // The workflow ended with the session; the read model's status explains the refusal.
    expect(again).toEqual(
      expect.objectContaining({ status: 409, body: { error: `Session ${sessionId} is cancelled and no longer accepts changes` } }),
    );
    expect(await readStatus(sessionId)).toBe('cancelled');
  });

  it('refuses a change to a session the read model shows closed, whether or not its workflow has ended yet', async () => {
    // A closed session's workflow ends moments after it writes the read model; in that window the answer must be
    // the same as after it. Here the window is held open: the read model says cancelled, the workflow still runs.
    const sessionId = await createSession();
    await service.db.sql`update sessions set status = 'cancelled' where id = ${sessionId}`;
    expect(await cancel(sessionId)).toEqual(
      expect.objectContaining({ status: 409, body: { error: `Session ${sessionId} is cancelled and no longer accepts changes` } }),
    );
    const state = await service.temporal.workflow.getHandle(sessionId).query(getStateQuery);
    expect(state.status).toBe('pending');
  });

  it('answers 409 for a closed session', async () => {
    const sessionId = await createSession();
    const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, {
      apiKey: alice.testKey,
      body: { status: 'completed' },
    });
    expect(simulated.status).toBe(200);
    const response = await cancel(sessionId);
    expect(response).toEqual(
      expect.objectContaining({ status: 409, body: { error: `Session ${sessionId} is completed and no longer accepts changes` } }),
    );
    expect(await readStatus(sessionId)).toBe('completed');
  });

  it('answers 409 once a deposit has been seen, and the session stays as it was', async () => {
    const sessionId = await createSession();
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: alice.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(selected.status).toBe(200);
    const deposit: DepositObservation = {
      chain: 'base',
      token: 'USDC',
      txHash: `0x${'ab'.repeat(32)}`,
      logIndex: 0,
      amount: '42500000',
      toAddress: selected.body.data?.deposit_address as string,
      fromAddress: `0x${'11'.repeat(20)}`,
      blockNumber: '1000',
      blockHash: `0x${'cd'.repeat(32)}`,
    };
    // As an indexer would (row, then signal); the cancel goes out once the workflow has recorded the deposit.
    await indexerRecords(service.db.sql, sessionId, deposit);
    await service.temporal.workflow.getHandle(sessionId).signal(depositDetectedSignal, deposit);
    await expect.poll(() => readStatus(sessionId), { timeout: 20_000 }).toBe('confirming');
    const response = await cancel(sessionId, { reason: 'too late' });
    expect(response).toEqual(
      expect.objectContaining({ status: 409, body: { error: expect.stringMatching(/with a payment under way cannot be cancelled/) } }),
    );
    expect(await readStatus(sessionId)).toBe('confirming');
  });

  it("answers 404 for unknown sessions, another merchant's and the other mode's, and cancels none", async () => {
    const test = await createSession();
    const live = await createSession(alice.liveKey);
    for (const [sessionId, apiKey] of [
      ['cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', alice.testKey],
      [test, bob.testKey],
      [live, alice.testKey],
      [test, alice.liveKey],
    ] as const) {
      const response = await cancel(sessionId, undefined, apiKey);
      expect(response, `${sessionId} with ${apiKey.slice(0, 8)}`).toMatchObject({ status: 404, body: { error: 'Session not found' } });
    }
    expect([await readStatus(test), await readStatus(live)]).toEqual(['pending', 'pending']);
  });

  it.each([
    [{ reason: '' }, ['reason: String must contain at least 1 character(s)']],
    [{ reason: 'x'.repeat(501) }, ['reason: String must contain at most 500 character(s)']],
    [{ reason: 'ok', by: 'operator' }, ['by: Unrecognized field']],
  ])('validates the body %j and changes nothing', async (body, errors) => {
    const sessionId = await createSession();
    const response = await cancel(sessionId, body);
    expect(response).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'Validation failed', details: { validation_errors: errors } } }),
    );
    expect(await readStatus(sessionId)).toBe('pending');
  });

  it('requires the API key and user-type headers', async () => {
    const sessionId = await createSession();
    const path = `/checkout/sessions/${sessionId}/cancel`;
    const noKey = await call(service.baseUrl, 'POST', path, { headers: { 'x-service-user-type': 'checkout' } });
    expect(noKey).toMatchObject({ status: 401, body: { error: 'Missing API key: send it in the x-api-key header' } });
    const noType = await call(service.baseUrl, 'POST', path, { headers: { 'x-api-key': alice.testKey } });
    expect(noType).toMatchObject({ status: 401, body: { error: 'Missing x-service-user-type header' } });
    expect(await readStatus(sessionId)).toBe('pending');
  });
});
