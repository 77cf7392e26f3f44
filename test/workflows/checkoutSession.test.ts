// Every path of the session workflow on the time-skipping test server, with real activities, a real
// Postgres read model and real webhook deliveries to a loopback receiver.
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountXpubsFromSeed, deriveEvmAddress, deriveSolanaAddress } from '../../domain/addresses/hdDerivation';
import { depositSeeds, DEVELOPMENT_MNEMONIC } from '../../domain/addresses/depositSeed';
import { createSignerActivities } from '../../signer/activities';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { verifyWebhookSignature } from '../../domain/webhooks/webhookSignature';
import type { WebhookPayload } from '../../domain/webhooks/webhookPayload';
import {
  bankTransferReceivedSignal,
  cancelUpdate,
  depositConfirmedSignal,
  depositDetectedSignal,
  depositReorgedSignal,
  getStateQuery,
  selectPaymentUpdate,
  simulateUpdate,
} from '../../workflows/messages';
import type { DepositObservation } from '../../domain/session/deposit';
import { MAX_PAYMENT_SELECTIONS } from '../../domain/wire/paymentSelectionLimit';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import type { checkoutSession } from '../../workflows/checkoutSession';
import {
  createWorkflowHarness,
  deposit,
  finishedDeliveries,
  indexerRecords,
  waitForState,
  type WorkflowHarness,
} from '../support/workflowHarness';

let h: WorkflowHarness;
beforeAll(async () => {
  h = await createWorkflowHarness();
});
beforeEach(() => h.freshEnvironment());
afterAll(() => h?.teardown());

const confirmed = (d: DepositObservation, confirmations = 64) => ({ ...d, confirmations });
type SessionHandle = WorkflowHandle<typeof checkoutSession>;

/** A deposit seen, as the indexer reports it: its row first, then the signal. */
async function detect(handle: SessionHandle, d: DepositObservation, mode: Mode = 'test') {
  await indexerRecords(h.db.sql, handle.workflowId, d, { mode });
  await handle.signal(depositDetectedSignal, d);
}

/** A deposit confirmed, as the indexer reports it: its row marked confirmed, then the signal. */
async function confirm(handle: SessionHandle, d: DepositObservation, confirmations = 64, mode: Mode = 'test') {
  await indexerRecords(h.db.sql, handle.workflowId, d, { mode, confirmations });
  await handle.signal(depositConfirmedSignal, confirmed(d, confirmations));
}

async function readModel(sessionId: string) {
  const [row] = await h.db.sql<
    { status: string; status_version: number }[]
  >`select status, status_version from sessions where id = ${sessionId}`;
  return row;
}

/** Waits for the session's `expected` webhook deliveries to finish; returns what the receiver got for each. */
async function deliveredWebhooks(sessionId: string, expected = 1) {
  const deliveries = await finishedDeliveries(h, sessionId, expected);
  return deliveries.map((d) => {
    expect(d.result).toBe('delivered');
    const got = h.receiver.received.filter((r) => r.headers['x-service-idempotency-key'] === d.id && r.answeredWith === 200);
    expect(got).toHaveLength(1);
    const request = got[0]!;
    return { id: d.id, event: d.event, request, payload: JSON.parse(request.rawBody) as WebhookPayload };
  });
}

/** The bank transfers recorded for a session, credited or refund due. */
function bankReceipts(sessionId: string) {
  return h.db.sql`select reference, amount_usd_cents::text, credited from bank_receipts where session_id = ${sessionId} order by reference`;
}

/** The settlements rows of a session, one per part. */
function settlementParts(sessionId: string) {
  return h.db.sql`
    select part, provider, chain, amount_usdc_base_units::text as amount, reference from settlements where session_id = ${sessionId} order by part`;
}

async function webhookSecret(): Promise<string> {
  const [row] = await h.db.sql<
    { webhook_secret_test: string }[]
  >`select webhook_secret_test from merchants where id = ${h.merchant.merchant.id}`;
  return row!.webhook_secret_test;
}

describe('checkoutSession lifecycle', () => {
  it('pending → awaiting_payment → confirming → completed, settled, with a signed payment.completed webhook', async () => {
    const record = await h.record({ metadata: { order: 'A-1' }, amountUsdCents: '2550' });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      expect(instructions).toMatchObject({
        token: 'USDC',
        chain: 'base',
        amount: '25.500000',
        amount_base_units: '25500000',
        decimals: 6,
        confirmations_required: 64,
        expires_at: record.expiresAt,
        token_address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      });
      expect(instructions.deposit_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(instructions.payment_uri).toBe(
        `ethereum:0x036CbD53842c5426634e7929541eC2318f3dCF7e@84532/transfer?address=${instructions.deposit_address}&uint256=25500000`,
      );
      expect((await readModel(record.sessionId))?.status).toBe('awaiting_payment');

      const paid = deposit({ amount: '25500000', toAddress: instructions.deposit_address });
      await detect(handle, paid);
      await waitForState(handle, (s) => s.status === 'confirming');
      await confirm(handle, paid);
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.transitions.map((t) => t.status)).toEqual(['pending', 'awaiting_payment', 'confirming', 'completed']);
      expect(state.receivedBaseUnits).toBe('25500000');
      expect(state.settlement).toMatchObject({ provider: 'simulated', amountUsdc: '25500000' });
      // The query can run ahead of the read-model write that follows the decision.
      await expect.poll(() => readModel(record.sessionId)).toEqual({ status: 'completed', status_version: 3 });

      const [seen, webhook] = await deliveredWebhooks(record.sessionId, 2);
      expect(seen!.payload).toMatchObject({ event: 'payment.confirming', status: 'confirming', amount: { token_received: '0.000000' } });
      expect(seen!.payload).not.toHaveProperty('settlement');
      expect(webhook!.event).toBe('payment.completed');
      expect(webhook!.request.headers['x-service-event']).toBe('payment.completed');
      expect(webhook!.id).toMatch(/^wh_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(
        verifyWebhookSignature(
          webhook!.request.rawBody,
          webhook!.request.headers['x-service-signature'] as string,
          await webhookSecret(),
          300,
        ),
      ).toMatchObject({ valid: true });
      expect(webhook!.payload).toEqual({
        event: 'payment.completed',
        delivery_id: webhook!.id,
        livemode: false,
        payment_id: `pay_${record.sessionId.slice(3)}`,
        session_id: record.sessionId,
        transaction_id: record.extTransactionId,
        status: 'completed',
        amount: { usd_requested: 25.5, token_expected: '25.500000', token_received: '25.500000', token_symbol: 'USDC', chain: 'base' },
        settlement: {
          amount_usdc: '25.500000',
          chain: 'solana',
          settled_at: state.settlement!.settledAt,
          reference: state.settlement!.reference,
          provider: 'simulated',
        },
        metadata: { order: 'A-1' },
        timestamp: state.transitions[3]!.at,
      });
      // The workflow owns the verdict on a deposit row; block, stage and depth belong to the indexer.
      const [row] = await h.db.sql`select credited, late, amount_base_units from deposits where tx_hash = ${paid.txHash}`;
      expect(row).toEqual({ credited: true, late: false, amount_base_units: '25500000' });
      const [payment] = await h.db
        .sql`select received_base_units, expected_base_units from payments where session_id = ${record.sessionId}`;
      expect(payment).toEqual({ received_base_units: '25500000', expected_base_units: '25500000' });
      // The merchant's timeline carries the workflow's own reason for each change.
      expect(
        await h.db.sql`select to_status, reason from session_status_changes where session_id = ${record.sessionId} order by id`,
      ).toEqual([
        { to_status: 'pending', reason: null },
        { to_status: 'awaiting_payment', reason: 'USDC on base selected' },
        { to_status: 'confirming', reason: `deposit ${paid.txHash} detected` },
        { to_status: 'completed', reason: `deposit ${paid.txHash} confirmed with 64 confirmations` },
      ]);
    });
  });

  it('underpaid, then topped up to completed by a second deposit', async () => {
    const record = await h.record({ amountUsdCents: '10000' });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const first = deposit({ amount: '60000000', toAddress: deposit_address });
      await detect(handle, first);
      await confirm(handle, first);
      await waitForState(handle, (s) => s.status === 'underpaid');
      const second = deposit({ amount: '40000000', toAddress: deposit_address });
      await detect(handle, second);
      await confirm(handle, second);
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.transitions.map((t) => t.status)).toEqual([
        'pending',
        'awaiting_payment',
        'confirming',
        'underpaid',
        'confirming',
        'completed',
      ]);
      expect(state.receivedBaseUnits).toBe('100000000');
      const webhooks = await deliveredWebhooks(record.sessionId, 4);
      expect(webhooks.map((w) => w.event)).toEqual(['payment.confirming', 'payment.underpaid', 'payment.confirming', 'payment.completed']);
      expect(webhooks[1]!.payload.amount).toMatchObject({ token_expected: '100.000000', token_received: '60.000000' });
      expect(webhooks[1]!.payload).not.toHaveProperty('settlement');
    });
  });

  it('accepts an amount within tolerance as completed and judges one beyond it overpaid, settling no more than the price', async () => {
    const within = await h.record({ amountUsdCents: '10000' });
    const over = await h.record({ amountUsdCents: '10000' });
    await h.withWorker(async () => {
      // The merchant is owed what arrived up to the price; the 0.60 beyond it is owed back to the customer.
      for (const [record, amount, status, settled] of [
        [within, '99500000', 'completed', '99500000'],
        [over, '100600000', 'overpaid', '100000000'],
      ] as const) {
        const handle = await h.start(record);
        const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
        const paid = deposit({ amount, toAddress: deposit_address });
        await detect(handle, paid);
        await confirm(handle, paid);
        const state = await waitForState(handle, (s) => s.status === status);
        expect(state.settlement?.amountUsdc).toBe(settled);
      }
      const [, withinWebhook] = await deliveredWebhooks(within.sessionId, 2);
      expect(withinWebhook!.payload).toMatchObject({ event: 'payment.completed', amount: { token_received: '99.500000' } });
      const [, overWebhook] = await deliveredWebhooks(over.sessionId, 2);
      expect(overWebhook!.payload).toMatchObject({
        event: 'payment.overpaid',
        amount: { token_received: '100.600000' },
        settlement: { amount_usdc: '100.000000' },
      });
    });
  });

  it('normalises bsc 18-decimal amounts exactly to 6-decimal webhook strings', async () => {
    const record = await h.record({ amountUsdCents: '1999' });
    await h.withWorker(
      async () => {
        const handle = await h.start(record);
        const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'bsc' }] });
        expect(instructions).toMatchObject({ decimals: 18, amount: '19.990000', amount_base_units: '19990000000000000000' });
        const paid = deposit({ chain: 'bsc', amount: '19990000000000000001', toAddress: instructions.deposit_address });
        await detect(handle, paid);
        await confirm(handle, paid, 15);
        await waitForState(handle, (s) => s.status === 'completed');
        const [, webhook] = await deliveredWebhooks(record.sessionId, 2);
        expect(webhook!.payload.amount).toMatchObject({ token_expected: '19.990000', token_received: '19.990000', chain: 'bsc' });
        expect(webhook!.payload.settlement?.amount_usdc).toBe('19.990000');
      },
      {
        paymentNetwork: {
          tokenContract: () => ({ address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 }),
          evmChainId: () => 97,
          watchedChains: (chain) => [chain],
        },
      },
    );
  });

  it('expires an unpaid 60-minute session at expires_at, with a payment.expired webhook', async () => {
    const record = await h.record({ lifetimeMinutes: 60 });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const state = await handle.result();
      expect(state.status).toBe('expired');
      expect(state.transitions.map((t) => t.status)).toEqual(['pending', 'expired']);
      // A session that never issued a deposit address has nothing left to watch: its workflow ends at close.
      expect((await handle.describe()).closeTime!.getTime() - Date.parse(record.expiresAt)).toBeLessThan(60_000);
      const expiredAt = Date.parse(state.transitions[1]!.at);
      expect(expiredAt).toBeGreaterThanOrEqual(Date.parse(record.expiresAt));
      expect(expiredAt - Date.parse(record.expiresAt)).toBeLessThan(60_000);
      expect(await readModel(record.sessionId)).toEqual({ status: 'expired', status_version: 1 });
      const [webhook] = await deliveredWebhooks(record.sessionId);
      expect(webhook!.payload).toEqual({
        event: 'payment.expired',
        delivery_id: webhook!.id,
        livemode: false,
        session_id: record.sessionId,
        transaction_id: record.extTransactionId,
        status: 'expired',
        amount: { usd_requested: 19.99 },
        metadata: record.metadata,
        timestamp: state.transitions[1]!.at,
      });
    });
  });

  it('writes the read model itself when the API never did', async () => {
    const record = await h.record({ lifetimeMinutes: 30 });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await waitForState(handle, (s) => s.status === 'pending');
      await expect.poll(async () => (await readModel(record.sessionId))?.status).toBe('pending');
      const [transaction] = await h.db.sql`select ext_transaction_id from transactions where session_id = ${record.sessionId}`;
      expect(transaction?.ext_transaction_id).toBe(record.extTransactionId);
    });
  });

  it('ends an orphan workflow at once when its transaction_id belongs to another session', async () => {
    const owner = await h.record();
    const orphan = { ...(await h.record()), extTransactionId: owner.extTransactionId };
    await insertSessionRecord(h.db.sql, owner, 'pending');
    await h.withWorker(async () => {
      const state = await (await h.start(orphan)).result();
      expect(state).toMatchObject({ sessionId: orphan.sessionId, status: 'pending', version: 0 });
      expect(await readModel(orphan.sessionId)).toBeUndefined();
    });
  });

  it('cancels on request before any deposit, and refuses once one was seen', async () => {
    const cancellable = await h.record();
    const paying = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(cancellable);
      const state = await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'customer left', by: 'merchant' }] });
      expect(state.status).toBe('cancelled');
      expect((await readModel(cancellable.sessionId))?.status).toBe('cancelled');

      const busy = await h.start(paying);
      const { deposit_address } = await busy.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      await detect(busy, deposit({ amount: '19990000', toAddress: deposit_address }));
      await waitForState(busy, (s) => s.status === 'confirming');
      const refused = await busy.executeUpdate(cancelUpdate, { args: [{ reason: 'too late', by: 'operator' }] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'CancelRefused' });
    });
  });

  it("credits a confirmation only on the indexer's facts: a forged one credits nothing, an inflated one only what arrived", async () => {
    const record = await h.record({ amountUsdCents: '1999' });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      // Signals straight to Temporal, for a deposit no indexer ever saw.
      const forged = deposit({ amount: '19990000', toAddress: deposit_address });
      await handle.signal(depositDetectedSignal, forged);
      await handle.signal(depositConfirmedSignal, confirmed(forged));
      const refused = await waitForState(handle, (s) => s.transitions.some((t) => t.reason.includes('not credited')));
      expect(refused.transitions.slice(-2).map((t) => t.reason)).toEqual([
        `detection of deposit ${forged.txHash} is not backed by the indexer's records; not tracked`,
        `confirmation of deposit ${forged.txHash} is not backed by the indexer's records; not credited`,
      ]);
      expect(refused).toMatchObject({ status: 'awaiting_payment', receivedBaseUnits: '0', deposits: [] });
      expect(refused.settlement).toBeUndefined();

      // A real deposit of 5 USDC, confirmed by a signal that claims 19.99: the indexer's amount counts.
      const real = deposit({ amount: '5000000', toAddress: deposit_address });
      await indexerRecords(h.db.sql, record.sessionId, real, { confirmations: 64 });
      await handle.signal(depositDetectedSignal, real);
      await handle.signal(depositConfirmedSignal, confirmed({ ...real, amount: '19990000' }));
      const state = await waitForState(handle, (s) => s.status === 'underpaid');
      expect(state.receivedBaseUnits).toBe('5000000');
    });
  });

  it("tracks a detection only on the indexer's facts: an inflated amount or another token counts as the row says", async () => {
    const record = await h.record({ amountUsdCents: '1999' });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      // The indexer recorded 5 USDC; a signal sent straight to Temporal claims the full 19.99 from another payer.
      const real = deposit({ amount: '5000000', toAddress: deposit_address });
      await indexerRecords(h.db.sql, record.sessionId, real);
      await handle.signal(depositDetectedSignal, { ...real, amount: '19990000', fromAddress: `0x${'66'.repeat(20)}` });
      const tracked = await waitForState(handle, (s) => s.status === 'confirming');
      expect(tracked.deposits).toEqual([expect.objectContaining({ amount: '5000000', fromAddress: real.fromAddress })]);
      await confirm(handle, real);
      expect((await waitForState(handle, (s) => s.status === 'underpaid')).receivedBaseUnits).toBe('5000000');

      // The indexer recorded USDT; a signal claims the session's USDC: kept for a refund, never credited.
      const usdt = deposit({ token: 'USDT', amount: '14990000', toAddress: deposit_address });
      await indexerRecords(h.db.sql, record.sessionId, usdt);
      await handle.signal(depositDetectedSignal, { ...usdt, token: 'USDC' });
      await confirm(handle, usdt);
      const refunded = await waitForState(handle, (s) => s.refunds.length === 1);
      expect(refunded.refunds).toEqual([expect.objectContaining({ txHash: usdt.txHash, token: 'USDT', amountBaseUnits: '14990000' })]);
      expect(refunded).toMatchObject({ status: 'underpaid', receivedBaseUnits: '5000000' });
    });
  });

  it('keeps another token and dust for a refund without touching the session, then completes on the real payment', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const wrong = deposit({ token: 'USDT', amount: '19990000', toAddress: deposit_address });
      const dust = deposit({ amount: '1', toAddress: deposit_address });
      for (const d of [wrong, dust]) {
        await detect(handle, d);
        await confirm(handle, d);
      }
      const refunded = await waitForState(handle, (s) => s.refunds.length === 2);
      expect(refunded.status).toBe('awaiting_payment');
      expect(refunded.transitions.slice(-2).map((t) => t.reason)).toEqual([
        `deposit ${wrong.txHash} recorded for refund: USDT on base received, but the session expects USDC on base`,
        `deposit ${dust.txHash} recorded for refund: below the minimum deposit`,
      ]);
      await expect
        .poll(() => h.db.sql`select tx_hash, credited, late from deposits where session_id = ${record.sessionId}`)
        .toEqual(
          expect.arrayContaining([
            { tx_hash: wrong.txHash, credited: false, late: true },
            { tx_hash: dust.txHash, credited: false, late: true },
          ]),
        );

      // The selected pair is not blocked: the customer's payment still completes the session.
      const paid = deposit({ amount: '19990000', toAddress: deposit_address });
      await detect(handle, paid);
      await confirm(handle, paid);
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.receivedBaseUnits).toBe('19990000');
      expect((await deliveredWebhooks(record.sessionId, 2)).map((w) => w.event)).toEqual(['payment.confirming', 'payment.completed']);
    });
  });

  it('in production, refuses a test session webhook to a loopback receiver at delivery, as for live', async () => {
    const record = await h.record();
    expect(new URL(record.webhookUrl).hostname).toBe('127.0.0.1');
    await h.withWorker(
      async () => {
        const handle = await h.start(record);
        const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
        await detect(handle, deposit({ amount: '19990000', toAddress: deposit_address }));
        const [delivery] = await finishedDeliveries(h, record.sessionId, 1);
        expect(delivery).toMatchObject({ event: 'payment.confirming', result: 'failed' });
        const attempts = await h.db.sql`select attempt, status_code, error from webhook_attempts where delivery_id = ${delivery!.id}`;
        expect(attempts).toEqual([{ attempt: 1, status_code: null, error: 'webhook URL refused: Must use https' }]);
      },
      {},
      { targets: { appEnv: 'production', allowedPrivateTargets: [] } },
    );
  });

  it('fails live payments loudly when no settlement route exists for the pair', async () => {
    const record = await h.record({ mode: 'live', webhookUrl: 'https://127.0.0.1/webhooks' });
    await h.withWorker(
      async () => {
        const handle = await h.start(record);
        const { deposit_address, token_address } = await handle.executeUpdate(selectPaymentUpdate, {
          args: [{ token: 'USDC', chain: 'base' }],
        });
        expect(token_address).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
        const paid = deposit({ amount: '19990000', toAddress: deposit_address });
        await detect(handle, paid, 'live');
        await confirm(handle, paid, 64, 'live');
        const state = await waitForState(handle, (s) => s.status === 'failed');
        expect(state.failureReason).toBe('No live settlement route for USDC on base; funds are held at the deposit address');
        expect(state.settlement).toBeUndefined();
        // Live webhooks never reach loopback: refused before connecting, once, without retries.
        const [seen, delivery] = await finishedDeliveries(h, record.sessionId, 2);
        expect(seen).toMatchObject({ event: 'payment.confirming', result: 'failed' });
        expect(delivery).toMatchObject({ event: 'payment.failed', result: 'failed' });
        // The signed body binds the delivery id and the mode: a captured live body passes under no other key.
        const [stored] = await h.db.sql<{ body: string }[]>`select body from webhook_deliveries where id = ${delivery!.id}`;
        expect(JSON.parse(stored!.body)).toMatchObject({ event: 'payment.failed', delivery_id: delivery!.id, livemode: true });
        const attempts = await h.db.sql`select attempt, status_code, error from webhook_attempts where delivery_id = ${delivery!.id}`;
        expect(attempts).toEqual([{ attempt: 1, status_code: null, error: 'webhook URL refused: Host 127.0.0.1 is not a public address' }]);
      },
      {
        depositXpubs: {
          test: undefined,
          live: accountXpubsFromSeed(
            mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
          ),
        },
        liveTokenPrices: { USDC: { numerator: 1n, denominator: 1n, text: '1' } },
      },
    );
  });

  it('goes back to awaiting payment when the deposit is reorged out, and counts the replacement once', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const original = deposit({ amount: '19990000', toAddress: deposit_address });
      await detect(handle, original);
      await waitForState(handle, (s) => s.status === 'confirming');
      await handle.signal(depositReorgedSignal, { chain: original.chain, txHash: original.txHash, logIndex: original.logIndex });
      await waitForState(handle, (s) => s.status === 'awaiting_payment');
      const replacement = deposit({ amount: '19990000', toAddress: deposit_address });
      await detect(handle, replacement);
      await confirm(handle, replacement);
      await confirm(handle, replacement);
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.receivedBaseUnits).toBe('19990000');
      expect(state.transitions.map((t) => t.status)).toEqual([
        'pending',
        'awaiting_payment',
        'confirming',
        'awaiting_payment',
        'confirming',
        'completed',
      ]);
      expect(state.deposits.map((d) => d.stage)).toEqual(['reorged', 'confirmed']);
      const webhook = (await deliveredWebhooks(record.sessionId, 3)).at(-1);
      expect(webhook!.payload.amount).toMatchObject({ token_received: '19.990000' });
    });
  });

  it('revives a reorged deposit when the same transfer is mined again in another block', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const original = deposit({ amount: '19990000', toAddress: deposit_address });
      await detect(handle, original);
      await handle.signal(depositReorgedSignal, { chain: original.chain, txHash: original.txHash, logIndex: original.logIndex });
      await waitForState(handle, (s) => s.status === 'awaiting_payment' && s.transitions.length === 4);
      const remined = { ...original, blockNumber: '1002', blockHash: `0x${'ab'.repeat(32)}` };
      await detect(handle, remined);
      const confirming = await waitForState(handle, (s) => s.status === 'confirming' && s.transitions.length === 5);
      expect(confirming.deposits).toEqual([
        expect.objectContaining({ stage: 'detected', blockHash: remined.blockHash, blockNumber: '1002' }),
      ]);
      await confirm(handle, remined);
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.receivedBaseUnits).toBe('19990000');
      expect((await deliveredWebhooks(record.sessionId, 3)).map((w) => w.event)).toEqual([
        'payment.confirming',
        'payment.confirming',
        'payment.completed',
      ]);
    });
  });

  it('counts duplicate signals once', async () => {
    const record = await h.record({ amountUsdCents: '5000' });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const half = deposit({ amount: '25000000', toAddress: deposit_address });
      for (let i = 0; i < 3; i++) await detect(handle, half);
      for (let i = 0; i < 3; i++) await confirm(handle, half);
      const state = await waitForState(handle, (s) => s.status === 'underpaid');
      expect(state.receivedBaseUnits).toBe('25000000');
      expect(state.deposits).toHaveLength(1);
      const webhooks = await deliveredWebhooks(record.sessionId, 2);
      expect(webhooks.map((w) => w.event)).toEqual(['payment.confirming', 'payment.underpaid']);
    });
  });

  it('ends its workflow when the session closes, also when a deposit address was issued', async () => {
    const record = await h.record({ lifetimeMinutes: 15 });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const state = await handle.result();
      expect(state.status).toBe('expired');
      // No late-deposit window held open: the indexer records late deposits itself (test/indexers/core/signals.test.ts).
      const closedAt = (await handle.describe()).closeTime!.getTime();
      expect(closedAt - Date.parse(record.expiresAt)).toBeLessThan(60_000);
      const [watch] = await h.db.sql<
        { watch_until: Date }[]
      >`select watch_until from deposit_watches where session_id = ${record.sessionId}`;
      expect(watch!.watch_until.getTime()).toBe(Date.parse(record.expiresAt) + record.lateDepositWatchHours * 3_600_000);
      const [expired] = await deliveredWebhooks(record.sessionId);
      expect(expired!.payload).toMatchObject({ event: 'payment.expired', amount: { token_received: '0.000000' } });
    });
  });

  it(`lets a session choose its payment method at most ${MAX_PAYMENT_SELECTIONS} times`, async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      // Choosing the same pair again counts too: each choice prices a new quote.
      const choice = { token: 'USDC', chain: 'base' } as const;
      for (let i = 0; i < MAX_PAYMENT_SELECTIONS; i++) await handle.executeUpdate(selectPaymentUpdate, { args: [choice] });
      const refused = await handle.executeUpdate(selectPaymentUpdate, { args: [choice] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({
        type: 'SelectionRefused',
        message: `The payment method was already chosen ${MAX_PAYMENT_SELECTIONS} times for this session; it can no longer change`,
      });
      const [{ n }] = (await h.db.sql`select count(*)::int as n from quotes where session_id = ${record.sessionId}`) as unknown as [
        { n: number },
      ];
      expect(n).toBe(MAX_PAYMENT_SELECTIONS);
    });
  });

  it('replaces the payment choice before a deposit and refuses a change after one', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const first = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const second = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDT', chain: 'base' }] }).catch((e: unknown) => e);
      // USDT has no published Base Sepolia token: test keys cannot pay with it there.
      expect((second as WorkflowUpdateFailedError).cause).toMatchObject({
        type: 'SelectionRefused',
        message: 'USDT on base is not available for test payments',
      });
      const third = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'bsc' }] }).catch((e: unknown) => e);
      expect((third as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'SelectionRefused' });
      const unsupported = await handle
        .executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'tron' }] })
        .catch((e: unknown) => e);
      expect((unsupported as WorkflowUpdateFailedError).cause).toMatchObject({
        type: 'SelectionRefused',
        message: 'USDC on tron is not supported for this session',
      });
      const again = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      expect(again.deposit_address).toBe(first.deposit_address);
      await detect(handle, deposit({ amount: '19990000', toAddress: first.deposit_address }));
      await waitForState(handle, (s) => s.status === 'confirming');
      const refused = await handle
        .executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] })
        .catch((e: unknown) => e);
      expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'SelectionRefused' });
      expect((await handle.query(getStateQuery)).selection?.chain).toBe('base');
    });
  });

  it('takes a Solana deposit address from the signer worker, for the index the EVM address has too', async () => {
    const record = await h.record({ supportedTokens: { USDC: ['base', 'solana'] } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const evm = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const solana = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'solana' }] });
      const [row] = await h.db.sql<
        { index: number }[]
      >`select derivation_index::int as index from deposit_addresses where session_id = ${record.sessionId}`;
      const devSeed = mnemonicToSeedSync(DEVELOPMENT_MNEMONIC);
      expect([evm.deposit_address, solana.deposit_address]).toEqual([
        deriveEvmAddress({ seed: devSeed }, row!.index),
        deriveSolanaAddress(devSeed, row!.index),
      ]);
      expect(await activitiesRun(handle)).toEqual([
        'recordSession@local',
        'choosePayment@local',
        'choosePayment@local',
        'deriveSolanaDepositAddress@-signer-test',
        'choosePayment@local',
      ]);
    });
  });

  it('takes a Solana deposit address the signer derived ahead from the pool, with no signer activity', async () => {
    const record = await h.record({ supportedTokens: { USDC: ['base', 'solana'] } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const [row] = await h.db.sql<
        { index: number }[]
      >`select derivation_index::int as index from deposit_addresses where session_id = ${record.sessionId}`;
      // An earlier session's derivation, one index below, filled the pool past this session's.
      const pooling = createSignerActivities({ depositSeeds: depositSeeds({ test: undefined, live: undefined }), addressPool: h.db.sql });
      await pooling.deriveSolanaDepositAddress({ mode: 'test', index: row!.index - 1 });
      const solana = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'solana' }] });
      expect(solana.deposit_address).toBe(deriveSolanaAddress(mnemonicToSeedSync(DEVELOPMENT_MNEMONIC), row!.index));
      expect(await activitiesRun(handle)).toEqual(['recordSession@local', 'choosePayment@local', 'choosePayment@local']);
    });
  });

  it('prepares EVM pairs while no signer runs, and a simulated payment on a Solana-only session through the signer', async () => {
    const evmOnly = await h.record({ supportedTokens: { USDC: ['base'] } });
    await h.withWorker(
      async () => {
        const handle = await h.start(evmOnly);
        expect((await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] })).chain).toBe('base');
      },
      {},
      {},
      false,
    );
    const solanaOnly = await h.record({ supportedTokens: { USDC: ['solana'] } });
    await h.withWorker(async () => {
      const handle = await h.start(solanaOnly);
      await handle.executeUpdate(simulateUpdate, { args: [{ status: 'completed' }] });
      const state = await handle.query(getStateQuery);
      const [row] = await h.db.sql<
        { index: number }[]
      >`select derivation_index::int as index from deposit_addresses where session_id = ${solanaOnly.sessionId}`;
      expect(state.selection).toMatchObject({
        chain: 'solana',
        deposit_address: deriveSolanaAddress(mnemonicToSeedSync(DEVELOPMENT_MNEMONIC), row!.index),
      });
    });
  });

  it('completes a bank-transfer session once the transfers marked received add up, settling it as held by the merchant', async () => {
    const record = await h.record({ amountUsdCents: '10000', supportedMethods: { crypto: true, bank: true } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '4000', reference: 'CS-ABCDEFGHJK', receivedBy: 'operator' });
      await waitForState(handle, (s) => s.status === 'underpaid');
      // The same transfer marked twice is one transfer; another reference adds up.
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '4000', reference: 'CS-ABCDEFGHJK', receivedBy: 'operator' });
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '6000', reference: 'CS-ABCDEFGHJK-2', receivedBy: 'operator' });
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.bankReceipts.map((r) => r.reference)).toEqual(['CS-ABCDEFGHJK', 'CS-ABCDEFGHJK-2']);
      expect(state.bankReceivedCents).toBe('10000');
      expect(state.settlement).toMatchObject({ provider: 'bank', amountUsdc: '100000000', reference: 'CS-ABCDEFGHJK, CS-ABCDEFGHJK-2' });
      // The second receipt adds to the payment of record; it does not replace the first one's row.
      const [payment] = await h.db
        .sql`select chain, deposit_address, expected_base_units, received_base_units from payments where session_id = ${record.sessionId}`;
      expect(payment).toEqual({
        chain: 'bank',
        deposit_address: 'CS-ABCDEFGHJK',
        expected_base_units: '100000000',
        received_base_units: '100000000',
      });
      expect(await bankReceipts(record.sessionId)).toEqual([
        { reference: 'CS-ABCDEFGHJK', amount_usd_cents: '4000', credited: true },
        { reference: 'CS-ABCDEFGHJK-2', amount_usd_cents: '6000', credited: true },
      ]);
      expect(await settlementParts(record.sessionId)).toEqual([
        { part: 'bank', provider: 'bank', chain: 'bank', amount: '100000000', reference: 'CS-ABCDEFGHJK, CS-ABCDEFGHJK-2' },
      ]);
      const webhooks = await deliveredWebhooks(record.sessionId, 2);
      expect(webhooks.map((w) => w.event)).toEqual(['payment.underpaid', 'payment.completed']);
      expect(webhooks[1]!.payload.settlement).toMatchObject({ amount_usdc: '100.000000', chain: 'bank', provider: 'bank' });
    });
  });

  it('completes a live bank-transfer session: the merchant holds the money, nothing is paid out', async () => {
    const record = await h.record({
      mode: 'live',
      webhookUrl: 'https://127.0.0.1/webhooks',
      amountUsdCents: '2500',
      supportedMethods: { crypto: false, bank: true },
    });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '2500', reference: 'CS-LIVE', receivedBy: 'operator' });
      const state = await waitForState(handle, (s) => s.status === 'completed' || s.status === 'failed');
      expect(state).toMatchObject({ status: 'completed', settlement: { provider: 'bank', amountUsdc: '25000000', reference: 'CS-LIVE' } });
      expect(await settlementParts(record.sessionId)).toEqual([
        { part: 'bank', provider: 'bank', chain: 'bank', amount: '25000000', reference: 'CS-LIVE' },
      ]);
      expect(await h.db.sql`select 1 from payouts where payment_id = ${paymentIdForSession(record.sessionId)}`).toHaveLength(0);
    });
  });

  it('settles a crypto + bank session in two parts: the crypto deposits paid out, the bank part recorded', async () => {
    const record = await h.record({ amountUsdCents: '10000', supportedMethods: { crypto: true, bank: true } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const { deposit_address } = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const paid = deposit({ amount: '30000000', toAddress: deposit_address });
      await detect(handle, paid);
      await confirm(handle, paid);
      await waitForState(handle, (s) => s.status === 'underpaid');
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '7000', reference: 'CS-MIXED', receivedBy: 'operator' });
      const state = await waitForState(handle, (s) => s.status === 'completed');
      expect(state.settlement).toMatchObject({ provider: 'simulated', amountUsdc: '30000000' });
      expect(await settlementParts(record.sessionId)).toEqual([
        { part: 'bank', provider: 'bank', chain: 'bank', amount: '70000000', reference: 'CS-MIXED' },
        {
          part: 'payout',
          provider: 'simulated',
          chain: 'solana',
          amount: '30000000',
          reference: `sim_${paymentIdForSession(record.sessionId)}`,
        },
      ]);
      // The bank receipt leaves the chosen payment as it was: its token, chain, address and deposits.
      const [payment] = await h.db
        .sql`select chain, token, deposit_address, received_base_units from payments where session_id = ${record.sessionId}`;
      expect(payment).toEqual({ chain: 'base', token: 'USDC', deposit_address, received_base_units: '30000000' });
      expect(await bankReceipts(record.sessionId)).toEqual([{ reference: 'CS-MIXED', amount_usd_cents: '7000', credited: true }]);
    });
  });

  it('counts only its own deposits in a crypto payment chosen after a bank receipt', async () => {
    const record = await h.record({ amountUsdCents: '10000', supportedMethods: { crypto: true, bank: true } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '4000', reference: 'CS-FIRST', receivedBy: 'operator' });
      await waitForState(handle, (s) => s.status === 'underpaid');
      await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      // Nothing arrived on base: the bank part is counted in bank_receipts, not as the token received.
      const [payment] = await h.db.sql`select chain, received_base_units from payments where session_id = ${record.sessionId}`;
      expect(payment).toEqual({ chain: 'base', received_base_units: '0' });
      expect(await bankReceipts(record.sessionId)).toEqual([{ reference: 'CS-FIRST', amount_usd_cents: '4000', credited: true }]);
    });
  });

  it('keeps a partly paid bank-only session underpaid at expires_at, settles what arrived and announces the settlement', async () => {
    const record = await h.record({ amountUsdCents: '10000', lifetimeMinutes: 30, supportedMethods: { crypto: false, bank: true } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '4000', reference: 'CS-PARTIAL', receivedBy: 'operator' });
      await waitForState(handle, (s) => s.status === 'underpaid');
      // To the expiry timer, not past it: once the workflow ends no timer is left for the test server to skip to.
      await h.env.sleep('30 minutes');
      const state = await waitForState(handle, (s) => s.settlement !== undefined);
      expect(state.status).toBe('underpaid');
      expect(state.settlement).toMatchObject({ provider: 'bank', amountUsdc: '40000000' });
      expect(state.transitions.at(-1)?.reason).toBe('session reached expires_at; underpaid amount settled, session closed');
      expect(await readModel(record.sessionId)).toEqual({ status: 'underpaid', status_version: state.version });
      // The first payment.underpaid announced the shortfall; the second, at expiry, carries what was settled.
      const webhooks = await deliveredWebhooks(record.sessionId, 2);
      expect(webhooks.map((w) => w.event)).toEqual(['payment.underpaid', 'payment.underpaid']);
      expect(webhooks[0]!.payload).not.toHaveProperty('settlement');
      expect(webhooks[1]!.payload.settlement).toMatchObject({
        amount_usdc: '40.000000',
        chain: 'bank',
        provider: 'bank',
        reference: 'CS-PARTIAL',
      });
    });
  });

  it('records a bank transfer that arrives for a session that takes none as refund due, never credited', async () => {
    const record = await h.record({ amountUsdCents: '10000', supportedMethods: { crypto: true, bank: false } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '2500', reference: 'CS-STRAY', receivedBy: 'operator' });
      const state = await waitForState(handle, (s) => s.refunds.length === 1);
      expect(state).toMatchObject({ status: 'pending', bankReceivedCents: '0' });
      await expect
        .poll(() => bankReceipts(record.sessionId))
        .toEqual([{ reference: 'CS-STRAY', amount_usd_cents: '2500', credited: false }]);
      expect(await h.db.sql`select 1 from payments where session_id = ${record.sessionId}`).toHaveLength(0);
    });
  });

  it('lets one handler at a time into the lock, whatever arrives at once', async () => {
    const record = await h.record({
      amountUsdCents: '10000',
      supportedMethods: { crypto: true, bank: true },
      supportedTokens: { USDC: ['base', 'solana'] },
    });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.signal(bankTransferReceivedSignal, { amountUsdCents: '100', reference: 'R-0', receivedBy: 'operator' });
      await waitForState(handle, (s) => s.status === 'underpaid');
      const pairs = [
        { token: 'USDC', chain: 'base' },
        { token: 'USDC', chain: 'solana' },
        { token: 'USDC', chain: 'base' },
      ] as const;
      await Promise.all([
        ...pairs.map((pair) => handle.executeUpdate(selectPaymentUpdate, { args: [pair] })),
        ...[1, 2, 3].map((i) =>
          handle.signal(bankTransferReceivedSignal, { amountUsdCents: '100', reference: `R-${i}`, receivedBy: 'operator' }),
        ),
      ]);
      await waitForState(handle, (s) => s.bankReceivedCents === '400');
      // Every activity inside the lock completes before the next one is scheduled.
      const { events } = await handle.fetchHistory();
      const open = new Set<string>();
      let most = 0;
      for (const event of events ?? []) {
        if (event.activityTaskScheduledEventAttributes) open.add(String(event.eventId));
        const closed =
          event.activityTaskCompletedEventAttributes ??
          event.activityTaskFailedEventAttributes ??
          event.activityTaskTimedOutEventAttributes;
        if (closed) open.delete(String(closed.scheduledEventId));
        most = Math.max(most, open.size);
      }
      expect(most).toBe(1);
    });
  });

  it('simulates a paid status on a session with no method chosen with every field a real payment carries', async () => {
    const record = await h.record({ amountUsdCents: '2500', metadata: { order: 'S-1' } });
    await h.withWorker(async () => {
      const handle = await h.start(record);
      expect(await handle.executeUpdate(simulateUpdate, { args: [{ status: 'completed' }] })).toEqual({
        session_id: record.sessionId,
        status: 'completed',
      });
      const state = await handle.query(getStateQuery);
      expect(state.simulated).toEqual({ selection: true, receipt: true });
      expect(state.settlement).toMatchObject({ provider: 'simulated', amountUsdc: '25000000' });
      const [webhook] = await deliveredWebhooks(record.sessionId, 1);
      expect(webhook!.payload).toEqual({
        event: 'payment.completed',
        delivery_id: webhook!.id,
        livemode: false,
        payment_id: `pay_${record.sessionId.slice(3)}`,
        session_id: record.sessionId,
        transaction_id: record.extTransactionId,
        status: 'completed',
        amount: {
          usd_requested: 25,
          token_expected: '25.000000',
          token_received: '25.000000',
          token_symbol: state.selection!.token,
          chain: state.selection!.chain,
        },
        settlement: {
          amount_usdc: '25.000000',
          chain: 'solana',
          settled_at: state.settlement!.settledAt,
          reference: state.settlement!.reference,
          provider: 'simulated',
        },
        metadata: { order: 'S-1' },
        timestamp: state.transitions.at(-1)!.at,
      });
      const [payment] = await h.db
        .sql`select token, chain, expected_base_units, received_base_units from payments where session_id = ${record.sessionId}`;
      expect(payment).toEqual({
        token: state.selection!.token,
        chain: state.selection!.chain,
        expected_base_units: '25000000',
        received_base_units: '25000000',
      });
      expect(await readModel(record.sessionId)).toMatchObject({ status: 'completed' });
    });
  });

  it('continues from carried state as a new run would after continue-as-new', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const first = await h.start(record);
      const { deposit_address } = await first.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
      const paid = deposit({ amount: '19990000', toAddress: deposit_address });
      await detect(first, paid);
      const snapshot = await waitForState(first, (s) => s.status === 'confirming');
      // The change is fully announced before the run ends, as continue-as-new waits for it too.
      await finishedDeliveries(h, record.sessionId, 1);
      await first.terminate('replaced by the continued run below');

      const next = await h.env.client.workflow.start<typeof checkoutSession>('checkoutSession', {
        workflowId: record.sessionId,
        taskQueue: (await first.describe()).taskQueue,
        args: [record, { state: snapshot, expiryReached: false }],
      });
      await confirm(next, paid);
      const state = await waitForState(next, (s) => s.status === 'completed');
      expect(state.version).toBe(snapshot.version + 1);
      expect(state.transitions.map((t) => t.status)).toEqual(['pending', 'awaiting_payment', 'confirming', 'completed']);
      // The query answers from the workflow's state, which changes before the read model's activity has run.
      await expect.poll(() => readModel(record.sessionId)).toEqual({ status: 'completed', status_version: snapshot.version + 1 });
      expect((await deliveredWebhooks(record.sessionId, 2)).map((w) => w.event)).toEqual(['payment.confirming', 'payment.completed']);
    });
  });

  it('simulate drives the same status path, read model and webhook as a natural change', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      expect(await handle.executeUpdate(simulateUpdate, { args: [{ status: 'failed' }] })).toEqual({
        session_id: record.sessionId,
        status: 'failed',
      });
      expect((await readModel(record.sessionId))?.status).toBe('failed');
      const [webhook] = await deliveredWebhooks(record.sessionId);
      expect(webhook!.payload).toMatchObject({ event: 'payment.failed', status: 'failed', session_id: record.sessionId });
      expect(
        verifyWebhookSignature(webhook!.request.rawBody, webhook!.request.headers['x-service-signature'] as string, await webhookSecret()),
      ).toMatchObject({ valid: true });
    });
  });
});

/** Activities by their queue, local activities (run within the session worker's workflow task) as `local`. */
async function activitiesRun(handle: WorkflowHandle): Promise<string[]> {
  const { events } = await handle.fetchHistory();
  return events!.flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) return [`${scheduled.activityType!.name}@${scheduled.taskQueue!.name!.replace(/^lifecycle-[0-9a-f]+/, '')}`];
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0]?.data : undefined;
    return data ? [`${(JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string }).activity_type}@local`] : [];
  });
}
