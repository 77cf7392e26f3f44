// The merchant refund API (docs/refunds.md#api) on the real stack: what a merchant may refund, where it may send it, the
// Idempotency-Key that makes a retry safe, cancelling, and reading refunds back, only ever its own.
import { ed25519 } from '@noble/curves/ed25519.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solanaAddressFromPublicKey } from '../../domain/addresses/solana';
import { verifyRefundClaimToken } from '../../domain/refunds/refundClaimToken';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { newRefundId } from '../../domain/wire/ids';
import { RefundObject } from '../../domain/wire/refund';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { insertLateDeposit, insertTestRefund } from '../support/refunds';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let alice: TestMerchant;
let bob: TestMerchant;

// An ed25519 wallet on Solana, and the associated USDC token account it owns (a program-derived address).
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const TOKEN_ACCOUNT = '4pAuu9vaJ6354MroMjKyaHnRAHvGs3w6hKEM1eTMfHVg';

beforeAll(async () => {
  service = await startTestService();
  alice = await createTestMerchant(service.db.sql, { name: 'Alice' });
  bob = await createTestMerchant(service.db.sql, { name: 'Bob' });
});
afterAll(() => service?.stop());

const headers = (apiKey: string, idempotencyKey?: string) => ({
  'x-service-user-type': 'checkout',
  'x-api-key': apiKey,
  ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
});

let keys = 0;
const newKey = () => `refund-test-${Date.now()}-${(keys += 1)}`;

async function createSession(merchant = alice): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

/** A test session paid through simulate: $42.50 received, no deposit, nothing moved. */
async function paidSession(merchant = alice, status: 'completed' | 'overpaid' | 'underpaid' = 'completed'): Promise<string> {
  const sessionId = await createSession(merchant);
  const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, {
    apiKey: merchant.testKey,
    body: { status },
  });
  expect(simulated).toMatchObject({ status: 200, body: { data: { status } } });
  return sessionId;
}

const refund = (sessionId: string, body: unknown, options: { apiKey?: string; key?: string | null } = {}) =>
  call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/refunds`, {
    headers: headers(options.apiKey ?? alice.testKey, options.key === null ? undefined : (options.key ?? newKey())),
    body,
  });

const get = (path: string, apiKey = alice.testKey) => call(service.baseUrl, 'GET', path, { apiKey });
const cancel = (refundId: string, body?: unknown, apiKey = alice.testKey) =>
  call(service.baseUrl, 'POST', `/checkout/refunds/${refundId}/cancel`, { apiKey, ...(body === undefined ? {} : { body }) });

async function refundCount(sessionId: string): Promise<number> {
  const [row] = await service.db.sql<{ count: string }[]>`select count(*)::text as count from refunds where session_id = ${sessionId}`;
  return Number(row?.count);
}

describe('create refund', () => {
  it('refunds everything the customer paid when no amount is given, waiting for the claim, and starts its workflow', async () => {
    const sessionId = await paidSession();
    const before = Date.now();
    const response = await refund(sessionId, { reason: 'returned goods' });
    expect(response.status).toBe(201);
    const data = RefundObject.parse(response.body.data);
    expect(data).toMatchObject({
      object: 'refund',
      livemode: false,
      session_id: sessionId,
      status: 'pending_claim',
      source: 'merchant',
      amount_usd: 42.5,
      token: 'USDC',
      chain: 'solana',
      amount_base_units: '42500000',
      fee_policy: 'deducted',
      destination: null,
      reason: 'returned goods',
      claimed_at: null,
    });
    const [, token] = (data.claim_url ?? '').split('http://checkout.test/refunds/');
    expect(verifyRefundClaimToken(decodeURIComponent(token ?? ''), service.config.sessionTokenSecret ?? '')).toBe(data.id);
    const days = (Date.parse(data.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    const described = await service.temporal.workflow.getHandle(refundWorkflowId(data.id)).describe();
    expect(described.type).toBe('refundWorkflow');
    expect(described.taskQueue).toBe(service.config.temporal.taskQueue);
  });

  it('refunds a part, then the rest, then refuses with nothing left', async () => {
    const sessionId = await paidSession(alice, 'underpaid');
    // simulate's underpayment received half of the $42.50 asked.
    const part = await refund(sessionId, { amount_usd: 10 });
    expect(part).toMatchObject({ status: 201, body: { data: { amount_usd: 10, amount_base_units: '10000000' } } });
    const rest = await refund(sessionId, {});
    expect(rest).toMatchObject({ status: 201, body: { data: { amount_usd: 11.25 } } });
    const none = await refund(sessionId, {});
    expect(none).toEqual(expect.objectContaining({ status: 409, body: { error: 'Nothing is left to refund on this session' } }));
    expect(await refundCount(sessionId)).toBe(2);
  });

  it("counts what the session's credited deposits paid, at its payment's decimals, and not a deposit it did not credit", async () => {
    const sessionId = await paidSession();
    const [payment] = await service.db.sql<{ chain: string; token: string; decimals: number; address: string }[]>`
      select chain, token, decimals, deposit_address as address from payments where session_id = ${sessionId}`;
    if (!payment) throw new Error('simulate chose no payment');
    const unit = 10n ** BigInt(payment.decimals);
    const deposit = (logIndex: number, amount: bigint, credited: boolean) => service.db.sql`
      insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                            block_number, block_hash, stage, confirmations, credited, late)
      values (${payment.chain}, ${`0x${'ab'.repeat(32)}`}, ${logIndex}, 'testnet', ${sessionId}, ${payment.token}, ${amount.toString()},
              'sender', ${payment.address}, 1, ${`0x${'cd'.repeat(32)}`}, 'confirmed', 100, ${credited}, ${!credited})`;
    await deposit(0, 30n * unit + unit / 2n, true);
    await deposit(1, 5n * unit, false);
    // The credited deposit, not simulate's made-up $42.50, is what the customer paid.
    expect(await refund(sessionId, {})).toMatchObject({ status: 201, body: { data: { amount_usd: 30.5 } } });
  });

  it('frees what a cancelled refund held', async () => {
    const sessionId = await paidSession();
    const all = await refund(sessionId, {});
    expect((await cancel(all.body.data?.id as string)).status).toBe(200);
    expect(await refund(sessionId, { amount_usd: 42.5 })).toMatchObject({ status: 201 });
  });

  it('refuses more than is refundable, and writes nothing', async () => {
    const sessionId = await paidSession();
    const response = await refund(sessionId, { amount_usd: 42.51 });
    expect(response).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'amount_usd 42.51 is more than the 42.50 still refundable on this session' } }),
    );
    expect(await refundCount(sessionId)).toBe(0);
  });

  it('refuses a session nobody paid', async () => {
    const sessionId = await createSession();
    const response = await refund(sessionId, {});
    expect(response).toEqual(expect.objectContaining({ status: 409, body: { error: expect.stringContaining('is pending') } }));
    expect(await refundCount(sessionId)).toBe(0);
  });

  it("answers a test session asked for with a live key, and another merchant's session, as not found", async () => {
    const sessionId = await paidSession();
    expect(await refund(sessionId, {}, { apiKey: alice.liveKey })).toEqual(
      expect.objectContaining({ status: 404, body: { error: 'Session not found' } }),
    );
    expect(await refund(sessionId, {}, { apiKey: bob.testKey })).toMatchObject({ status: 404 });
    expect(await refundCount(sessionId)).toBe(0);
  });

  it('requires an Idempotency-Key', async () => {
    const sessionId = await paidSession();
    const response = await refund(sessionId, {}, { key: null });
    expect(response).toEqual(
      expect.objectContaining({ status: 400, body: { error: expect.stringMatching(/^Idempotency-Key is required/) } }),
    );
    expect(await refundCount(sessionId)).toBe(0);
  });

  it('answers a repeat with the same Idempotency-Key with the same refund, creating nothing more', async () => {
    const sessionId = await paidSession();
    const key = newKey();
    const first = await refund(sessionId, { amount_usd: 5 }, { key });
    const again = await refund(sessionId, { amount_usd: 5 }, { key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await refundCount(sessionId)).toBe(1);
  });

  it('heals a create that died between writing the refund and starting its workflow: the retry starts it', async () => {
    const sessionId = await paidSession();
    const key = newKey();
    const id = newRefundId();
    // The row as the first request committed it, with neither its stored response nor its workflow.
    await service.db.sql`
      insert into refunds (id, mode, merchant_id, session_id, source, token, chain, amount_base_units, amount_usd_micros,
                           idempotency_key, expires_at)
      values (${id}, 'test', ${alice.merchant.id}, ${sessionId}, 'merchant', 'USDC', 'solana', 5000000, 5000000, ${key},
              now() + interval '30 days')`;
    const retry = await refund(sessionId, { amount_usd: 5 }, { key });
    expect(retry).toMatchObject({ status: 200, body: { data: { id, amount_usd: 5 } } });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await service.temporal.workflow.getHandle(refundWorkflowId(id)).describe()).type).toBe('refundWorkflow');
    await service.db.sql`delete from idempotency_keys where idempotency_key = ${key}`;
    // Once the middleware forgot the key, the refund still tells a different request apart.
    const changed = await refund(sessionId, { amount_usd: 6 }, { key });
    expect(changed).toEqual(
      expect.objectContaining({ status: 409, body: { error: expect.stringContaining('already used with a different request') } }),
    );
    expect(await refundCount(sessionId)).toBe(1);
  });

  it('refuses the same Idempotency-Key with a different request', async () => {
    const sessionId = await paidSession();
    const key = newKey();
    expect((await refund(sessionId, { amount_usd: 5 }, { key })).status).toBe(201);
    const response = await refund(sessionId, { amount_usd: 6 }, { key });
    expect(response).toEqual(
      expect.objectContaining({
        status: 409,
        body: { error: `Idempotency-Key ${key} was already used with a different request; use a new key for a new request` },
      }),
    );
    expect(await refundCount(sessionId)).toBe(1);
  });

  it('claims the refund at once when the merchant gives the destination', async () => {
    const sessionId = await paidSession(alice, 'overpaid');
    const response = await refund(sessionId, { amount_usd: 20, destination: { chain: 'solana', token: 'USDC', address: WALLET } });
    expect(response.status).toBe(201);
    const data = RefundObject.parse(response.body.data);
    expect(data).toMatchObject({ status: 'claimed', claim_url: null, destination: { chain: 'solana', token: 'USDC', address: WALLET } });
    expect(data.claimed_at).not.toBeNull();
    const described = await service.temporal.workflow.getHandle(refundWorkflowId(data.id)).describe();
    expect(described.type).toBe('refundWorkflow');
  });

  it.each([
    ['a token account', { chain: 'solana', token: 'USDC', address: TOKEN_ACCOUNT }, 'is off the ed25519 curve'],
    ['an EVM address on Solana', { chain: 'solana', token: 'USDC', address: `0x${'5a'.repeat(20)}` }, 'is not a Solana address'],
    ['another chain', { chain: 'base', token: 'USDC', address: `0x${'5a'.repeat(20)}` }, 'refunds are paid only as USDC on solana'],
    ['another token', { chain: 'solana', token: 'USDT', address: WALLET }, 'refunds are paid only as USDC on solana'],
  ])('refuses %s as the destination, and writes nothing', async (_, destination, problem) => {
    const sessionId = await paidSession();
    const response = await refund(sessionId, { destination });
    expect(response).toMatchObject({ status: 400, body: { details: { validation_errors: [expect.stringContaining(problem)] } } });
    expect(await refundCount(sessionId)).toBe(0);
  });

  it("refuses one of the service's own deposit addresses as the destination", async () => {
    const other = await createSession();
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: alice.testKey,
      body: { session_id: other, token: 'USDC', chain: 'solana' },
    });
    expect(selected.status).toBe(200);
    const depositAddress = selected.body.data?.deposit_address as string;
    const sessionId = await paidSession();
    const response = await refund(sessionId, { destination: { chain: 'solana', token: 'USDC', address: depositAddress } });
    expect(response).toMatchObject({
      status: 400,
      body: {
        details: {
          validation_errors: [`destination.address ${depositAddress} is a deposit address of this service; give the customer's own wallet`],
        },
      },
    });
    expect(await refundCount(sessionId)).toBe(0);
  });

  it('refuses a Solana deposit address the signer derived ahead of any session', async () => {
    const pooled = solanaAddressFromPublicKey(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    await service.db.sql`insert into solana_deposit_address_pool (mode, derivation_index, address) values ('live', 999999, ${pooled})`;
    const sessionId = await paidSession();
    const response = await refund(sessionId, { destination: { chain: 'solana', token: 'USDC', address: pooled } });
    expect(response).toMatchObject({
      status: 400,
      body: { details: { validation_errors: [expect.stringContaining('is a deposit address of this service')] } },
    });
    expect(await refundCount(sessionId)).toBe(0);
  });
});

describe("create refund: the customer's e-mail address (extension)", () => {
  it('keeps the address trimmed and lower-cased and never the claim link, shows it to the merchant only', async () => {
    const sessionId = await paidSession();
    const key = newKey();
    const response = await refund(sessionId, { amount_usd: 5, customer_email: '  Customer@Example.COM ' }, { key });
    expect(response.status).toBe(201);
    const data = RefundObject.parse(response.body.data);
    expect(data.customer_email).toBe('customer@example.com');
    expect((await get(`/checkout/refunds/${data.id}`)).body.data).toMatchObject({ customer_email: 'customer@example.com' });
    const token = (data.claim_url ?? '').split('/refunds/')[1] ?? '';
    // The link is a bearer credential: no column of the row may hold it, or its MAC, for another reader to claim with.
    const mac = decodeURIComponent(token).split('.').pop() ?? '';
    expect(mac.length).toBeGreaterThan(20);
    const [row] = await service.db.sql<{ customer_email: string; whole: string }[]>`
      select customer_email, to_jsonb(r)::text as whole from refunds r where id = ${data.id}`;
    expect(row!.customer_email).toBe('customer@example.com');
    expect(row!.whole).not.toContain(mac);
    const claimPage = await call(service.baseUrl, 'GET', `/refunds/${token}/state`, { headers: {} });
    expect(claimPage.status).toBe(200);
    expect(JSON.stringify(claimPage.body)).not.toContain('customer@example.com');
    const changed = await refund(sessionId, { amount_usd: 5, customer_email: 'other@example.com' }, { key });
    expect(changed.status).toBe(409);
  });

  it('shows no address when none was given', async () => {
    const response = await refund(await paidSession(), { amount_usd: 5 });
    expect(RefundObject.parse(response.body.data).customer_email).toBeNull();
  });

  it('refuses a malformed or overlong address, and writes nothing', async () => {
    const sessionId = await paidSession();
    for (const customer_email of ['not an address', 'customer@', `${'a'.repeat(250)}@example.com`, 42]) {
      const response = await refund(sessionId, { customer_email });
      expect(response).toMatchObject({
        status: 400,
        body: { error: 'Validation failed', details: { validation_errors: [expect.stringMatching(/^customer_email: /)] } },
      });
      expect(JSON.stringify(response.body)).not.toContain('a'.repeat(250));
    }
    expect(await refundCount(sessionId)).toBe(0);
  });
});

describe('cancel refund', () => {
  it('cancels a refund waiting for its claim, with the reason, and answers the same again', async () => {
    const sessionId = await paidSession();
    const created = await refund(sessionId, { amount_usd: 1 });
    const id = created.body.data?.id as string;
    const response = await cancel(id, { reason: 'customer kept it' });
    expect(response).toMatchObject({
      status: 200,
      body: { data: { id, status: 'cancelled', status_reason: 'cancelled by merchant: customer kept it', claim_url: null } },
    });
    expect(await cancel(id)).toMatchObject({ status: 200, body: { data: { status: 'cancelled' } } });
  });

  it('cancels a claimed refund', async () => {
    const sessionId = await paidSession();
    const created = await refund(sessionId, { destination: { chain: 'solana', token: 'USDC', address: WALLET } });
    expect(await cancel(created.body.data?.id as string)).toMatchObject({ status: 200, body: { data: { status: 'cancelled' } } });
  });

  it('refuses a refund already paid', async () => {
    const sessionId = await paidSession();
    const id = (await refund(sessionId, {})).body.data?.id as string;
    await service.db.sql`update refunds set status = 'completed', destination_chain = 'solana', destination_token = 'USDC',
      destination_address = ${WALLET} where id = ${id}`;
    expect(await cancel(id)).toEqual(
      expect.objectContaining({ status: 409, body: { error: 'A refund that is completed cannot be cancelled' } }),
    );
  });

  it('refuses a claimed refund whose payment the signer already wrote, and shows that payment', async () => {
    const sessionId = await paidSession();
    const created = await refund(sessionId, { amount_usd: 3, destination: { chain: 'solana', token: 'USDC', address: WALLET } });
    const id = created.body.data?.id as string;
    // As the signer writes it, ahead of any signature (signer/refunds/).
    await service.db.sql`insert into chain_intents (id, chain, mode) values (${`refund:${id}`}, 'solana', 'test')`;
    await service.db.sql`
      insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, fee_base_units, intent_id,
                                  status, signature, treasury)
      values (${id}, 'test', 'solana', 'USDC', ${WALLET}, 2990000, 10000, ${`refund:${id}`}, 'submitted', 'sig-of-the-payment', 'TestTreasury1111111111111111111111111111111')`;
    expect(await cancel(id)).toEqual(
      expect.objectContaining({ status: 409, body: { error: 'The refund cannot be cancelled: its payment is already under way' } }),
    );
    expect(await get(`/checkout/refunds/${id}`)).toMatchObject({
      status: 200,
      body: { data: { status: 'claimed', transaction_hash: 'sig-of-the-payment', fee_usd: null } },
    });
    await service.db.sql`update refund_payouts set status = 'confirmed' where refund_id = ${id}`;
    expect(await get(`/checkout/refunds/${id}`)).toMatchObject({ body: { data: { fee_usd: 0.01 } } });
  });

  it("refuses an automatic refund, the customer's own money, and leaves it", async () => {
    const sessionId = await paidSession();
    const deposit = await insertLateDeposit(service.db.sql, sessionId, 2_000_000n);
    const late = await insertTestRefund(service.db.sql, { merchantId: alice.merchant.id, sessionId }, { deposit });
    expect(await cancel(late.id)).toEqual(
      expect.objectContaining({
        status: 409,
        body: { error: "An automatic refund returns the customer's own money: only an operator can cancel it" },
      }),
    );
    expect(await get(`/checkout/refunds/${late.id}`)).toMatchObject({ status: 200, body: { data: { status: 'pending_claim' } } });
  });

  it("answers another merchant's refund as not found, and leaves it", async () => {
    const sessionId = await paidSession();
    const id = (await refund(sessionId, {})).body.data?.id as string;
    expect(await cancel(id, undefined, bob.testKey)).toEqual(expect.objectContaining({ status: 404, body: { error: 'Refund not found' } }));
    expect(await get(`/checkout/refunds/${id}`)).toMatchObject({ status: 200, body: { data: { status: 'pending_claim' } } });
  });
});

describe('read refunds', () => {
  it("reads a refund back as it was created, and another merchant's or mode's as not found", async () => {
    const sessionId = await paidSession();
    const created = await refund(sessionId, { amount_usd: 2 });
    const id = created.body.data?.id as string;
    expect(await get(`/checkout/refunds/${id}`)).toMatchObject({ status: 200, body: { data: created.body.data } });
    expect(await get(`/checkout/refunds/${id}`, bob.testKey)).toEqual(
      expect.objectContaining({ status: 404, body: { error: 'Refund not found' } }),
    );
    expect(await get(`/checkout/refunds/${id}`, alice.liveKey)).toMatchObject({ status: 404 });
  });

  it('lists newest first a page at a time, filtered by session, status and source, only the merchant’s own', async () => {
    const carol = await createTestMerchant(service.db.sql, { name: 'Carol' });
    const first = await paidSession(carol);
    const second = await paidSession(carol);
    const made: string[] = [];
    for (const [sessionId, amount] of [
      [first, 1],
      [first, 2],
      [second, 3],
    ] as const) {
      const response = await refund(sessionId, { amount_usd: amount }, { apiKey: carol.testKey });
      made.push(response.body.data?.id as string);
    }
    expect((await cancel(made[0] as string, undefined, carol.testKey)).status).toBe(200);
    await refund(await paidSession(bob), {}, { apiKey: bob.testKey });

    const ids = (body: Record<string, unknown>) => (body.data as { id: string }[]).map((r) => r.id);
    const page1 = await get('/checkout/refunds?limit=2', carol.testKey);
    expect(page1.status).toBe(200);
    expect(ids(page1.body)).toEqual([made[2], made[1]]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await get(`/checkout/refunds?limit=2&starting_after=${made[1]}`, carol.testKey);
    expect(ids(page2.body)).toEqual([made[0]]);
    expect(page2.body.has_more).toBe(false);

    expect(ids((await get(`/checkout/refunds?session_id=${first}`, carol.testKey)).body)).toEqual([made[1], made[0]]);
    expect(ids((await get('/checkout/refunds?status=cancelled', carol.testKey)).body)).toEqual([made[0]]);
    expect(ids((await get('/checkout/refunds?source=merchant', carol.testKey)).body)).toHaveLength(3);
    expect(ids((await get('/checkout/refunds?source=overpayment', carol.testKey)).body)).toEqual([]);
    expect(await get('/checkout/refunds', carol.liveKey)).toMatchObject({ status: 200, body: { data: [], has_more: false } });
  });

  it("refuses a cursor that is not one of the merchant's refunds, and a malformed filter", async () => {
    const id = (await refund(await paidSession(bob), {}, { apiKey: bob.testKey })).body.data?.id as string;
    expect(await get(`/checkout/refunds?starting_after=${id}`)).toMatchObject({
      status: 400,
      body: { details: { validation_errors: [`starting_after: no refund ${id} in this list`] } },
    });
    expect(await get('/checkout/refunds?status=paid')).toMatchObject({ status: 400 });
    expect(await get('/checkout/refunds?limit=101')).toMatchObject({ status: 400 });
  });
});
