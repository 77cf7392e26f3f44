// The refund workflow on the time-skipping test server, with real activities on a real Postgres and webhooks over real
// HTTP; the signer's payRefund is a stand-in on the test signer's queue, since what matters here is what the workflow
// does with each answer. A thirty-day claim window passes in seconds.
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertRefund, moveRefund, type NewRefund } from '../../db/repositories/refunds';
import { insertSessionRecord } from '../../db/repositories/sessions';
import type { RefundPaymentOutcome, RefundPaymentRequest } from '../../domain/refunds/refundPayment';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import type { RefundStatus } from '../../domain/refunds/refundStatus';
import { signerTaskQueue } from '../../domain/taskQueues';
import { newRefundId } from '../../domain/wire/ids';
import type { SessionRecord } from '../../domain/wire/session';
import { refundCancelledSignal, refundClaimedSignal, type RefundWorkflowInput } from '../../workflows/refundMessages';
import type { refundWorkflow } from '../../workflows/refund';
import { createWorkflowHarness, deposit, indexerRecords, type WorkflowHarness } from '../support/workflowHarness';

let h: WorkflowHarness;
beforeAll(async () => {
  h = await createWorkflowHarness();
});
beforeEach(() => h.freshEnvironment());
afterAll(() => h?.teardown());

const DAY_MS = 24 * 60 * 60 * 1000;
const DESTINATION = { chain: 'solana', token: 'USDC', address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' } as const;

/** A closed session of the merchant, its webhooks pointed at the receiver. */
async function closedSession(): Promise<SessionRecord> {
  const record = await h.record();
  await insertSessionRecord(h.db.sql, record, 'completed');
  return record;
}

/** A merchant's refund of $12.50 (nothing posted before its payment), open for thirty days of the server's clock. */
async function merchantRefund(record: SessionRecord, overrides: Partial<NewRefund> = {}) {
  const now = await h.env.currentTimeMs();
  const { refund } = await insertRefund(h.db.sql, {
    id: newRefundId(),
    mode: 'test',
    merchantId: record.merchantId,
    sessionId: record.sessionId,
    source: 'merchant',
    deposit: null,
    token: 'USDC',
    chain: 'solana',
    amountBaseUnits: 12_500_000n,
    amountUsdMicros: 12_500_000n,
    feePolicy: 'deducted',
    requireSenderProof: false,
    reason: 'returned goods',
    idempotencyKey: null,
    expiresAt: new Date(now + 30 * DAY_MS),
    ...overrides,
  });
  return refund;
}

/** The signer's answer once the $12.50 refund landed: $12.49 to the customer, the 1¢ fee kept. */
const paid = (signature: string): RefundPaymentOutcome => ({
  status: 'confirmed',
  signature,
  confirmedAt: '2026-11-28T00:00:00.000Z',
  amountBaseUnits: '12490000',
  feeBaseUnits: '10000',
});

/** The signer's stand-in: answers each pass in turn (the last one from then on), writing its payment when confirmed. */
function signer(answers: RefundPaymentOutcome[]) {
  const calls: RefundPaymentRequest[] = [];
  return {
    calls,
    async run<T>(fn: () => Promise<T>): Promise<T> {
      const worker = await Worker.create({
        connection: h.env.nativeConnection,
        namespace: h.env.namespace ?? 'default',
        taskQueue: signerTaskQueue(h.taskQueue, 'test'),
        activities: {
          async payRefund(request: RefundPaymentRequest): Promise<RefundPaymentOutcome> {
            calls.push(request);
            const answer = answers[Math.min(calls.length, answers.length) - 1]!;
            if (answer.status === 'confirmed') await signerWrotePayment(request.refundId, answer.signature);
            return answer;
          },
        },
      });
      return worker.runUntil(fn);
    },
  };
}

async function signerWrotePayment(refundId: string, signature: string) {
  const intent = `refund:${refundId}`;
  await h.db.sql`insert into chain_intents (id, chain, mode) values (${intent}, 'solana', 'test') on conflict do nothing`;
  await h.db
    .sql`insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, fee_base_units, intent_id, status, signature, treasury)
                 values (${refundId}, 'test', 'solana', 'USDC', ${DESTINATION.address}, 12490000, 10000, ${intent}, 'confirmed', ${signature}, 'TestTreasury1111111111111111111111111111111')
                 on conflict do nothing`;
}

function start(refundId: string, input: Partial<RefundWorkflowInput> = {}) {
  return h.env.client.workflow.start<typeof refundWorkflow>('refundWorkflow', {
    workflowId: refundWorkflowId(refundId),
    taskQueue: h.taskQueue,
    args: [{ refundId, mode: 'test', ...input }],
  });
}

/** The refund's webhooks once `expected` were received, by event, each parsed. */
async function webhooksOf(refundId: string, expected: number): Promise<Map<string, Record<string, unknown>>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const bodies = h.receiver.received
      .map((r) => JSON.parse(r.rawBody) as Record<string, unknown>)
      .filter((b) => (b.refund as { id?: string } | undefined)?.id === refundId || b.refund_id === refundId);
    if (bodies.length >= expected) return new Map(bodies.map((b) => [b.event as string, b]));
    if (Date.now() > deadline)
      throw new Error(`expected ${expected} webhooks of ${refundId}, got ${bodies.map((b) => b.event).join(', ')}`);
    // Delivery workflows retry on the server's clock: asking for a result lets it skip ahead.
    await h.env.sleep(1_000);
  }
}

async function statusOf(refundId: string): Promise<{ status: RefundStatus; status_reason: string | null; completed_at: Date | null }> {
  const [row] = await h.db.sql<{ status: RefundStatus; status_reason: string | null; completed_at: Date | null }[]>`
    select status, status_reason, completed_at from refunds where id = ${refundId}`;
  return row!;
}

describe('refund workflow', () => {
  it('pays a claimed refund pass after pass and announces it created, claimed and completed with its transaction', async () => {
    const record = await closedSession();
    const refund = await merchantRefund(record);
    const pay = signer([
      { status: 'awaiting_liquidity', usdcShortfall: '1', lamportsShortfall: '0' },
      { status: 'submitted', signature: '5sig' },
      paid('5sig'),
    ]);
    await h.withWorker(
      () =>
        pay.run(async () => {
          const handle = await start(refund.id);
          await h.env.sleep(DAY_MS);
          await moveRefund(h.db.sql, refund.id, 'claim', { destination: DESTINATION });
          await handle.signal(refundClaimedSignal);
          expect(await handle.result()).toBe('completed');
          const webhooks = await webhooksOf(refund.id, 3);
          expect([...webhooks.keys()].sort()).toEqual(['refund.claimed', 'refund.completed', 'refund.created']);
          expect(webhooks.get('refund.completed')).toMatchObject({
            session_id: record.sessionId,
            transaction_id: record.extTransactionId,
            refund: {
              status: 'completed',
              chain: 'solana',
              transaction_hash: '5sig',
              amount_usd: 12.5,
              fee_usd: 0.01,
              destination: DESTINATION,
            },
          });
          expect(webhooks.get('refund.created')).not.toHaveProperty('refund.claim_url');
        }),
      {},
      {},
      false,
    );
    expect(pay.calls).toHaveLength(3);
    expect(await statusOf(refund.id)).toMatchObject({ status: 'completed', completed_at: expect.any(Date) });
  });

  it('waits out a short treasury in fresh runs (continue-as-new), announcing the claim once, and completes', async () => {
    const record = await closedSession();
    const refund = await merchantRefund(record);
    await moveRefund(h.db.sql, refund.id, 'claim', { destination: DESTINATION });
    const short = { status: 'awaiting_liquidity', usdcShortfall: '12500000', lamportsShortfall: '0' } as const;
    const pay = signer([...Array.from({ length: 6 }, () => short), paid('5late')]);
    await h.withWorker(
      () =>
        pay.run(async () => {
          const handle = await start(refund.id, { runHistoryLimit: 20 });
          expect(await handle.result()).toBe('completed');
          const latest = await h.env.client.workflow.getHandle(refundWorkflowId(refund.id)).describe();
          expect(latest.runId).not.toBe(handle.firstExecutionRunId);
          const webhooks = await webhooksOf(refund.id, 3);
          expect([...webhooks.keys()].sort()).toEqual(['refund.claimed', 'refund.completed', 'refund.created']);
        }),
      {},
      {},
      false,
    );
    expect(pay.calls).toHaveLength(7);
    const claimed = h.receiver.received.filter((r) => r.headers['x-service-event'] === 'refund.claimed' && r.rawBody.includes(refund.id));
    expect(claimed).toHaveLength(1);
  });

  it('reminds three days before the window closes, then expires an unclaimed deposit refund into operator_held', async () => {
    const record = await closedSession();
    const late = deposit({ amount: '4000000', toAddress: `0x${randomBytes(20).toString('hex')}` });
    await indexerRecords(h.db.sql, record.sessionId, late, { confirmations: 64 });
    const refund = await merchantRefund(record, {
      source: 'late_deposit',
      deposit: { chain: late.chain, txHash: late.txHash, logIndex: late.logIndex },
      token: 'USDC',
      chain: 'base',
      amountBaseUnits: 4_000_000n,
      amountUsdMicros: 4_000_000n,
      reason: null,
    });
    const startedAt = await h.env.currentTimeMs();
    await h.withWorker(
      async () => {
        const handle = await start(refund.id);
        expect(await handle.result()).toBe('expired');
        expect((await h.env.currentTimeMs()) - startedAt).toBeGreaterThanOrEqual(30 * DAY_MS - 60_000);
        const webhooks = await webhooksOf(refund.id, 4);
        expect([...webhooks.keys()].sort()).toEqual(['payment.unmatched_deposit', 'refund.created', 'refund.expired', 'refund.expiring']);
        expect(webhooks.get('payment.unmatched_deposit')).toMatchObject({
          deposit: { chain: 'base', token: 'USDC', amount: '4.000000', transaction_hash: late.txHash },
          refund_id: refund.id,
        });
        expect(webhooks.get('refund.expired')).toMatchObject({ refund: { status: 'expired' } });
      },
      {},
      {},
      false,
    );
    const entries = await h.db.sql<{ account: string; amount: string }[]>`
      select account, amount::text from ledger_entries where group_id = ${`refund:${refund.id}:expired`} order by account`;
    expect(entries).toEqual([
      { account: 'operator_held:base', amount: '-4000000' },
      { account: 'refund_due:base', amount: '4000000' },
    ]);
  });

  it('announces a refund the merchant cancelled before it was claimed, and pays nothing', async () => {
    const record = await closedSession();
    const refund = await merchantRefund(record);
    const pay = signer([{ status: 'failed', reason: 'never asked' }]);
    await h.withWorker(
      () =>
        pay.run(async () => {
          const handle = await start(refund.id);
          await webhooksOf(refund.id, 1);
          await moveRefund(h.db.sql, refund.id, 'cancel', { statusReason: 'customer kept the goods' });
          await handle.signal(refundCancelledSignal);
          expect(await handle.result()).toBe('cancelled');
          const webhooks = await webhooksOf(refund.id, 2);
          expect(webhooks.get('refund.cancelled')).toMatchObject({
            refund: { status: 'cancelled', status_reason: 'customer kept the goods' },
          });
        }),
      {},
      {},
      false,
    );
    expect(pay.calls).toEqual([]);
  });

  it('takes a refund claimed before its workflow started, and records a payment the signer refused as failed', async () => {
    const record = await closedSession();
    const refund = await merchantRefund(record);
    await moveRefund(h.db.sql, refund.id, 'claim', { destination: DESTINATION });
    const pay = signer([{ status: 'failed', reason: 'the destination is a deposit address of this service' }]);
    await h.withWorker(
      () =>
        pay.run(async () => {
          expect(await (await start(refund.id)).result()).toBe('failed');
          const webhooks = await webhooksOf(refund.id, 3);
          expect(webhooks.get('refund.failed')).toMatchObject({
            refund: { status: 'failed', status_reason: 'the destination is a deposit address of this service', transaction_hash: null },
          });
        }),
      {},
      {},
      false,
    );
    expect(await statusOf(refund.id)).toMatchObject({
      status: 'failed',
      status_reason: 'the destination is a deposit address of this service',
    });
  });

  it("hands a failed deposit refund's money to the operator, for a reissue, as it fails", async () => {
    const record = await closedSession();
    const late = deposit({ amount: '3000000', toAddress: `0x${randomBytes(20).toString('hex')}` });
    await indexerRecords(h.db.sql, record.sessionId, late, { confirmations: 64 });
    const refund = await merchantRefund(record, {
      source: 'wrong_chain',
      deposit: { chain: late.chain, txHash: late.txHash, logIndex: late.logIndex },
      token: 'USDC',
      chain: 'base',
      amountBaseUnits: 3_000_000n,
      amountUsdMicros: 3_000_000n,
      reason: null,
    });
    await moveRefund(h.db.sql, refund.id, 'claim', { destination: DESTINATION });
    const pay = signer([{ status: 'failed', reason: 'the destination is an account of another program' }]);
    await h.withWorker(() => pay.run(async () => expect(await (await start(refund.id)).result()).toBe('failed')), {}, {}, false);
    const entries = await h.db.sql<{ account: string; amount: string }[]>`
      select account, amount::text from ledger_entries where group_id = ${`refund:${refund.id}:failed`} order by account`;
    expect(entries).toEqual([
      { account: 'operator_held:base', amount: '-3000000' },
      { account: 'refund_due:base', amount: '3000000' },
    ]);
  });

  it("posts nothing when a merchant's refund fails: it posted nothing before its payment", async () => {
    const record = await closedSession();
    const refund = await merchantRefund(record);
    await moveRefund(h.db.sql, refund.id, 'claim', { destination: DESTINATION });
    const pay = signer([{ status: 'failed', reason: 'the treasury key is missing' }]);
    await h.withWorker(() => pay.run(async () => expect(await (await start(refund.id)).result()).toBe('failed')), {}, {}, false);
    expect(await h.db.sql`select 1 from ledger_entries where reference = ${`refund:${refund.id}`}`).toHaveLength(0);
  });
});
