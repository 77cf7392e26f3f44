// POST /checkout/sessions/select-payment (docs/api.md#tokens-quotes-and-payment-selection): API key or session token, the session's own pairs
// only, the workflow's instructions on success and its refusals as 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentInstructions } from '../../domain/wire/payment';
import { issueSessionToken } from '../../domain/security/sessionToken';
import { cancelUpdate } from '../../workflows/messages';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const PATH = '/checkout/sessions/select-payment';

let service: TestService;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  service = await startTestService();
  alice = await createTestMerchant(service.db.sql, {
    name: 'Alice',
    supportedTokens: { USDC: ['base', 'solana', 'tron'], USDT: ['tron'] },
  });
  bob = await createTestMerchant(service.db.sql, { name: 'Bob' });
});
afterAll(() => service?.stop());

async function createSession(m: TestMerchant, apiKey = m.testKey): Promise<{ sessionId: string; token: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey,
    body: sessionRequest(m.merchant.id, { amount_usd: 42.5 }),
  });
  expect(created.status).toBe(201);
  const token = new URL(created.body.data?.checkout_url_with_token as string).searchParams.get('token') as string;
  return { sessionId: created.body.data?.session_id as string, token };
}

const asPage = (token: string, body: unknown, path = PATH) =>
  call(service.baseUrl, 'POST', path, { headers: { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' }, body });

async function readStatus(sessionId: string): Promise<string> {
  const [row] = await service.db.sql<{ status: string }[]>`select status from sessions where id = ${sessionId}`;
  return row?.status ?? 'missing';
}

describe('select-payment, happy path (needs the workflow side of selectPaymentUpdate)', () => {
  it('returns payment instructions to the merchant key and moves the session to awaiting_payment', async () => {
    const { sessionId } = await createSession(alice);
    const response = await call(service.baseUrl, 'POST', PATH, {
      apiKey: alice.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(response.status).toBe(200);
    const data = PaymentInstructions.parse(response.body.data);
    expect(data).toMatchObject({ token: 'USDC', chain: 'base', amount: '42.500000', decimals: 6, confirmations_required: 64 });
    expect(data.payment_id).toMatch(/^pay_/);
    expect(data.quote_id).toMatch(/^qt_/);
    expect(await readStatus(sessionId)).toBe('awaiting_payment');
  });

  it('accepts the session token in the Authorization header and in ?token=', async () => {
    const { sessionId, token } = await createSession(alice);
    const byHeader = await asPage(token, { session_id: sessionId, token: 'USDC', chain: 'solana' });
    expect(byHeader.status).toBe(200);
    expect(PaymentInstructions.parse(byHeader.body.data)).toMatchObject({ token: 'USDC', chain: 'solana' });
    const byQuery = await call(service.baseUrl, 'POST', `${PATH}?token=${encodeURIComponent(token)}`, {
      headers: { 'x-service-user-type': 'checkout' },
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(byQuery.status).toBe(200);
    expect(PaymentInstructions.parse(byQuery.body.data)).toMatchObject({ token: 'USDC', chain: 'base' });
  });
});

describe('select-payment refusals', () => {
  it("refuses a pair the merchant accepts but the key's network cannot take (USDT has no tron test-network contract), as unsupported", async () => {
    const { sessionId } = await createSession(alice);
    const response = await call(service.baseUrl, 'POST', PATH, {
      apiKey: alice.testKey,
      body: { session_id: sessionId, token: 'USDT', chain: 'tron' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details?.validation_errors).toEqual([
      'chain: USDT on tron is not supported for this session; supported: USDC on base, solana',
    ]);
    expect(await readStatus(sessionId)).toBe('pending');
  });

  it('answers 409 when the session closed (its workflow has ended with it)', async () => {
    const { sessionId } = await createSession(alice);
    await service.temporal.workflow.getHandle(sessionId).executeUpdate(cancelUpdate, { args: [{ reason: 'test', by: 'operator' }] });
    const response = await call(service.baseUrl, 'POST', PATH, {
      apiKey: alice.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: `Session ${sessionId} is cancelled and no longer accepts changes` });
  });

  it('rejects a pair outside the session supported_tokens, naming it', async () => {
    const { sessionId } = await createSession(alice);
    const response = await call(service.baseUrl, 'POST', PATH, {
      apiKey: alice.testKey,
      body: { session_id: sessionId, token: 'USDT', chain: 'ethereum' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'Validation failed',
      details: { validation_errors: ['chain: USDT on ethereum is not supported for this session; supported: USDC on base, solana'] },
    });
    expect(await readStatus(sessionId)).toBe('pending');
  });

  it('refuses a pair the live network has no contract for as unsupported', async () => {
    const { sessionId } = await createSession(alice, alice.liveKey);
    const response = await call(service.baseUrl, 'POST', PATH, {
      apiKey: alice.liveKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'tron' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details?.validation_errors?.[0]).toMatch(/^chain: USDC on tron is not supported for this session/);
  });

  it.each([
    [{}, ['session_id: Required', 'token: Required', 'chain: Required']],
    [{ session_id: 'cs_nope', token: 'USDC', chain: 'base' }, ['session_id: Must be a session id of the form cs_<ULID>']],
    [
      { session_id: 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', token: 'DAI', chain: 'base' },
      ["token: Invalid enum value. Expected 'USDC' | 'USDT', received 'DAI'"],
    ],
    [{ session_id: 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', token: 'USDC', chain: 'base', amount: 1 }, ['amount: Unrecognized field']],
  ])('validates the body %j', async (body, errors) => {
    const response = await call(service.baseUrl, 'POST', PATH, { apiKey: alice.testKey, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Validation failed', details: { validation_errors: errors } });
  });

  it('answers 404 for a session that does not exist', async () => {
    const response = await call(service.baseUrl, 'POST', PATH, {
      apiKey: alice.testKey,
      body: { session_id: 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', token: 'USDC', chain: 'base' },
    });
    expect(response).toMatchObject({ status: 404, body: { error: 'Session not found' } });
  });
});

describe('select-payment credentials and isolation', () => {
  it('answers 401 without any credential and 401 for an invalid session token', async () => {
    const { sessionId } = await createSession(alice);
    const body = { session_id: sessionId, token: 'USDC', chain: 'base' };
    const none = await call(service.baseUrl, 'POST', PATH, { headers: { 'x-service-user-type': 'checkout' }, body });
    expect(none).toMatchObject({
      status: 401,
      body: { error: 'Missing credentials: send the x-api-key header, or the session token as Authorization: Bearer or ?token=' },
    });
    const forged = await asPage(issueSessionToken(sessionId, 'another-secret-of-at-least-thirty-two-characters'), body);
    expect(forged).toMatchObject({ status: 401, body: { error: 'Invalid or expired session token' } });
    const noType = await call(service.baseUrl, 'POST', PATH, { headers: { 'x-api-key': alice.testKey }, body });
    expect(noType).toMatchObject({ status: 401, body: { error: 'Missing x-service-user-type header' } });
    expect(await readStatus(sessionId)).toBe('pending');
  });

  it('answers 401 for the token of an expired session', async () => {
    const { sessionId, token } = await createSession(alice);
    await service.db.sql`update sessions set expires_at = now() - interval '1 second' where id = ${sessionId}`;
    const response = await asPage(token, { session_id: sessionId, token: 'USDC', chain: 'base' });
    expect(response).toMatchObject({ status: 401, body: { error: 'Invalid or expired session token' } });
  });

  it("never lets the token of session A select for session B, whether or not B is the same merchant's", async () => {
    const a = await createSession(alice);
    const sameMerchant = await createSession(alice);
    const otherMerchant = await createSession(bob);
    for (const target of [sameMerchant.sessionId, otherMerchant.sessionId, 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const response = await asPage(a.token, { session_id: target, token: 'USDC', chain: 'base' });
      expect(response, target).toMatchObject({ status: 403, body: { error: 'This session token does not belong to session_id' } });
    }
    expect([await readStatus(sameMerchant.sessionId), await readStatus(otherMerchant.sessionId)]).toEqual(['pending', 'pending']);
  });

  it("hides the other mode's and other merchants' sessions from API keys as not found", async () => {
    const test = await createSession(alice);
    const live = await createSession(alice, alice.liveKey);
    const attempts: [string, string][] = [
      [alice.testKey, live.sessionId],
      [alice.liveKey, test.sessionId],
      [bob.testKey, test.sessionId],
      [bob.liveKey, live.sessionId],
    ];
    for (const [apiKey, sessionId] of attempts) {
      const response = await call(service.baseUrl, 'POST', PATH, { apiKey, body: { session_id: sessionId, token: 'USDC', chain: 'base' } });
      expect(response).toMatchObject({ status: 404, body: { error: 'Session not found' } });
    }
    expect([await readStatus(test.sessionId), await readStatus(live.sessionId)]).toEqual(['pending', 'pending']);
  });
});

describe('select-payment without a worker', () => {
  it('answers 503 with Retry-After when the session does not answer in time', async () => {
    const idle = await startTestService({ worker: false });
    try {
      const m = await createTestMerchant(idle.db.sql);
      const created = await call(idle.baseUrl, 'POST', '/checkout/sessions', { apiKey: m.testKey, body: sessionRequest(m.merchant.id) });
      const sessionId = created.body.data?.session_id as string;
      const response = await call(idle.baseUrl, 'POST', PATH, {
        apiKey: m.testKey,
        body: { session_id: sessionId, token: 'USDC', chain: 'base' },
      });
      expect(response).toMatchObject({ status: 503, body: { error: 'The session did not answer in time; retry the request' } });
      expect(response.headers.get('retry-after')).toBe('1');
    } finally {
      await idle.stop();
    }
  });
});
