// Create → get session → get transaction (by internal and external id) over HTTP, against the real
// Temporal dev server, a real worker and Postgres; shapes checked field by field against docs/api.md#sessions-and-transactions.
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../domain/chains/chains';
import { verifySessionToken } from '../../domain/security/sessionToken';
import { CheckoutSession, CreateSessionResponse, Transaction } from '../../domain/wire/session';
import { getStateQuery } from '../../workflows/messages';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService();
  merchant = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base', 'solana'], USDT: ['tron'] } });
});
afterAll(() => service?.stop());

describe('create → get session → get transaction', () => {
  it('creates a session whose workflow runs and whose read model answers every read', async () => {
    const request = sessionRequest(merchant.merchant.id, {
      transaction_id: 'order-1001',
      amount_usd: 149.99,
      merchant_currency: 'EUR',
      merchant_amount: 138.5,
      metadata: { cart: 'c-77', items: 3 },
    });
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, body: request });
    expect(created.status).toBe(201);
    const data = CreateSessionResponse.parse(created.body.data);
    expect(data.session_id).toMatch(/^cs_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(data.checkout_url).toBe(`http://checkout.test/checkout/${data.session_id}`);
    const withToken = new URL(data.checkout_url_with_token);
    expect(`${withToken.origin}${withToken.pathname}`).toBe(data.checkout_url);
    expect(verifySessionToken(withToken.searchParams.get('token') ?? '', service.config.sessionTokenSecret!)).toBe(data.session_id);
    expect(data.created_at).toMatch(ISO_UTC);
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(60 * 60 * 1000);

    const handle = service.temporal.workflow.getHandle(data.session_id);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await handle.query(getStateQuery)).status).toBe('pending');

    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${data.session_id}`, { apiKey: merchant.testKey });
    expect(got.status).toBe(200);
    const session = CheckoutSession.parse(got.body.data);
    expect(session).toEqual({
      session_id: data.session_id,
      merchant_id: merchant.merchant.id,
      transaction_id: 'order-1001',
      amount_usd: 149.99,
      merchant_currency: 'EUR',
      merchant_amount: 138.5,
      status: 'pending',
      supported_methods: { crypto: true, bank: false },
      // USDT has no contract on tron's test network, so a test-key session cannot take it.
      supported_tokens: { tokens: { USDC: { chain: ['base', 'solana'] } } },
      unsupported_tokens: {
        tokens: {
          USDC: { chain: CHAINS.filter((c) => c !== 'base' && c !== 'solana') },
          USDT: { chain: [...CHAINS] },
        },
      },
      expires_at: data.expires_at,
      created_at: data.created_at,
      updated_at: data.created_at,
      metadata: { cart: 'c-77', items: 3 },
    });

    const [{ id: transactionId }] = (await service.db
      .sql`select id from transactions where session_id = ${data.session_id}`) as unknown as [{ id: string }];
    expect(transactionId).toMatch(ULID);
    const expectedTransaction = {
      transaction_id: transactionId,
      merchant_id: merchant.merchant.id,
      status: 'pending',
      ext_transaction_id: 'order-1001',
      session_id: data.session_id,
      expires_at: data.expires_at,
      created_at: data.created_at,
      updated_at: data.created_at,
    };
    const byId = await call(service.baseUrl, 'GET', `/checkout/transactions/${transactionId}`, { apiKey: merchant.testKey });
    expect(byId.status).toBe(200);
    expect(Transaction.parse(byId.body.data)).toEqual(expectedTransaction);

    const byExt = await call(service.baseUrl, 'GET', '/checkout/transactions/order-1001?by_ext_transaction_id=true', {
      apiKey: merchant.testKey,
    });
    expect(byExt.status).toBe(200);
    expect(Transaction.parse(byExt.body.data)).toEqual(expectedTransaction);

    const extAsInternal = await call(service.baseUrl, 'GET', '/checkout/transactions/order-1001', { apiKey: merchant.testKey });
    expect(extAsInternal.status).toBe(404);
    expect(extAsInternal.body).toEqual({ error: 'Transaction not found' });
  });

  it('omits merchant_currency and merchant_amount when they were not given and returns {} metadata', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id),
    });
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${created.body.data?.session_id}`, { apiKey: merchant.testKey });
    const session = CheckoutSession.parse(got.body.data);
    expect(session).not.toHaveProperty('merchant_currency');
    expect(session).not.toHaveProperty('merchant_amount');
    expect(session.metadata).toEqual({});
  });

  it('answers a repeated identical request with the same session, and a different one with 409', async () => {
    const body = sessionRequest(merchant.merchant.id, { transaction_id: 'order-2002', metadata: { a: '1', b: '2' } });
    const first = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, body });
    const again = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: { ...body, metadata: { b: '2', a: '1' } },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);

    const differs = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: { ...body, amount_usd: 1 },
    });
    expect(differs.status).toBe(409);
    expect(differs.body).toEqual({ error: 'A session for transaction_id order-2002 already exists with different amount_usd' });

    const [{ count }] = (await service.db
      .sql`select count(*)::int as count from transactions where ext_transaction_id = 'order-2002'`) as unknown as [{ count: number }];
    expect(count).toBe(1);
  });

  it('creates one session when the same transaction_id arrives concurrently', async () => {
    const body = sessionRequest(merchant.merchant.id, { transaction_id: 'order-race' });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, body })),
    );
    const ids = new Set(results.map((r) => r.body.data?.session_id));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(ids.size).toBe(1);
    const [{ count }] = (await service.db
      .sql`select count(*)::int as count from sessions where merchant_id = ${merchant.merchant.id} and id = ${[...ids][0] as string}`) as unknown as [
      { count: number },
    ];
    expect(count).toBe(1);
  });

  it('answers 503 when Temporal refuses the start, keeping the committed row for the retry to start its workflow', async () => {
    const broken = await startTestService({ worker: false });
    try {
      const m = await createTestMerchant(broken.db.sql);
      await broken.temporal.connection.close();
      const response = await call(broken.baseUrl, 'POST', '/checkout/sessions', {
        apiKey: m.testKey,
        body: sessionRequest(m.merchant.id, { transaction_id: 'order-no-temporal' }),
      });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: 'The session could not be started; retry the request with the same transaction_id' });
      expect(response.headers.get('retry-after')).toBe('1');
      // The row was committed before the start was tried; its input waits for the retry (createSessionCrash.test.ts).
      const rows = await broken.db.sql<{ pending: boolean }[]>`select pending_workflow_input is not null as pending from sessions`;
      expect(rows).toEqual([{ pending: true }]);
      const lookup = service.temporal.workflow.list({ query: `ExtTransactionId = 'order-no-temporal'` });
      const found: string[] = [];
      for await (const wf of lookup) found.push(wf.workflowId);
      expect(found).toEqual([]);
    } finally {
      await broken.stop().catch(() => undefined);
    }
  });

  it('rejects reading a session that does not exist', async () => {
    const response = await call(service.baseUrl, 'GET', '/checkout/sessions/cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', { apiKey: merchant.testKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'Session not found' });
    await expect(service.temporal.workflow.getHandle('cs_01ARZ3NDEKTSV4RRFFQ69G5FAV').describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );
  });
});
