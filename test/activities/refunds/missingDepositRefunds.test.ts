// The refunds no workflow opened (docs/refunds.md#sources), run as the worker's role against the service's Temporal: a
// deposit the indexer marks late after its session's workflow ended gets one refund, waiting for its claim, whose
// workflow runs and announces it as payment.unmatched_deposit; a second run, or two at once, open none more; a run
// after one whose workflow start was lost starts it; and a deposit whose refund the workflow's verdict opened is left to it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openMissingDepositRefunds, type MissingDepositRefundsDeps } from '../../../activities/refunds/missingDepositRefunds';
import { createRecordDeposit } from '../../../activities/payments/recordDeposit';
import { refundStarter } from '../../../activities/refunds/startRefundWorkflow';
import { createSql, type Sql } from '../../../db/client';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import type { Chain, TokenSymbol } from '../../../domain/chains/chains';
import { refundWorkflowId } from '../../../domain/refunds/refundPayment';
import type { DepositState } from '../../../domain/session/deposit';
import { markConfirmed, markLate, upsertDeposits } from '../../../indexers/core/depositStore';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../../support/factories';
import { call } from '../../support/http';
import { startTestService, type TestService } from '../../support/service';
import { sessionRecord } from '../../support/sessionRecords';

let service: TestService;
let worker: Sql;
let shop: TestMerchant;
let deps: MissingDepositRefundsDeps;

beforeAll(async () => {
  service = await startTestService();
  worker = createSql(service.db.urlAs('checkout_worker'));
  shop = await createTestMerchant(service.db.sql);
  deps = { sql: worker, refundClaimDays: 30, startRefund: refundStarter(service.temporal, service.config.temporal.taskQueue) };
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await service?.stop();
});

/** A session created through the API and cancelled, its workflow ended. */
async function endedSession(): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: shop.testKey,
    body: sessionRequest(shop.merchant.id, { amount_usd: 10 }),
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.data?.session_id as string;
  const cancelled = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/cancel`, { apiKey: shop.testKey, body: {} });
  expect(cancelled.status).toBe(200);
  // A cancelled session's workflow lingers until the session's expiry: ended here instead of waiting for it.
  await service.temporal.workflow.getHandle(sessionId).terminate('the session closed');
  return sessionId;
}

/** A deposit to the session as the indexer records one after the session's workflow ended: seen, confirmed, late. */
async function lateDeposit(
  sessionId: string,
  amount: bigint,
  pair: { chain: Chain; token: TokenSymbol } = { chain: 'base', token: 'USDC' },
) {
  const ref = { chain: pair.chain, txHash: `0x${randomBytes(32).toString('hex')}`, logIndex: 0 };
  const key = { chain: pair.chain, network: 'testnet' } as const;
  await upsertDeposits(service.db.sql, key, [
    {
      sessionId,
      token: pair.token,
      txHash: ref.txHash,
      logIndex: 0,
      amount,
      fromAddress: '0xpayer',
      toAddress: '0xdeposit',
      blockNumber: 10n,
      blockHash: '0xbh',
    },
  ]);
  expect(await markConfirmed(service.db.sql, ref, '0xbh', 64)).toBe(true);
  await markLate(service.db.sql, ref);
  return ref;
}

const refundsOf = (txHash: string) => service.db.sql<Array<{ id: string; source: string; status: string; amount: string }>>`
  select id, source, status, amount_base_units::text as amount from refunds where deposit_tx_hash = ${txHash}`;

describe('opening the refunds no workflow opened', { timeout: 120_000 }, () => {
  it('opens one refund of a deposit recorded late after the workflow ended, runs its workflow, and none more when run again', async () => {
    const sessionId = await endedSession();
    const deposit = await lateDeposit(sessionId, 2_500_000n);
    // Below a micro-dollar: no refund can return it, and it is passed over rather than found every time.
    const dust = await lateDeposit(sessionId, 999_999_999_999n, { chain: 'bsc', token: 'USDT' });

    const opened = await openMissingDepositRefunds(deps, 'test');
    const [refund] = await refundsOf(deposit.txHash);
    expect(opened.map((r) => r.id)).toEqual([refund!.id]);
    expect(await refundsOf(deposit.txHash)).toEqual([
      { id: refund!.id, source: 'late_deposit', status: 'pending_claim', amount: '2500000' },
    ]);
    expect(await refundsOf(dust.txHash)).toEqual([]);
    // Owed back in the ledger, as the verdict posts it.
    expect(
      await service.db
        .sql`select account, amount::text from ledger_entries where group_id = ${`deposit:base:${deposit.txHash}:0`} order by account`,
    ).toEqual([
      { account: 'deposits:base', amount: '2500000' },
      { account: 'refund_due:base', amount: '-2500000' },
    ]);
    const handle = service.temporal.workflow.getHandle(refundWorkflowId(refund!.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await vi.waitFor(
      async () =>
        expect(
          (
            await service.db.sql<{ event: string }[]>`select event from webhook_deliveries where refund_id = ${refund!.id} order by event`
          ).map((r) => r.event),
        ).toEqual(['payment.unmatched_deposit', 'refund.created']),
      { timeout: 30_000, interval: 200 },
    );

    expect(await openMissingDepositRefunds(deps, 'test')).toEqual([]);
    expect(await refundsOf(deposit.txHash)).toHaveLength(1);
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it('opens a refund once when two processes run at once', async () => {
    const sessionId = await endedSession();
    const deposit = await lateDeposit(sessionId, 1_000_000n);
    const other = createSql(service.db.urlAs('checkout_worker'));
    try {
      const [first, second] = await Promise.all([
        openMissingDepositRefunds(deps, 'test'),
        openMissingDepositRefunds({ ...deps, sql: other }, 'test'),
      ]);
      const rows = await refundsOf(deposit.txHash);
      expect(rows).toHaveLength(1);
      expect([...first, ...second].map((r) => r.id)).toEqual([rows[0]!.id]);
    } finally {
      await other.end({ timeout: 5 });
    }
  });

  it('starts on the next run a workflow whose start was lost after its refund was committed', async () => {
    const sessionId = await endedSession();
    const deposit = await lateDeposit(sessionId, 1_500_000n);
    const unreachable = () => Promise.reject(new Error('Temporal unreachable'));
    await expect(openMissingDepositRefunds({ ...deps, startRefund: unreachable }, 'test')).rejects.toThrow('Temporal unreachable');
    const [refund] = await refundsOf(deposit.txHash);
    expect(refund).toMatchObject({ source: 'late_deposit', status: 'pending_claim' });
    const handle = service.temporal.workflow.getHandle(refundWorkflowId(refund!.id));
    await expect(handle.describe()).rejects.toThrow();

    expect(await openMissingDepositRefunds(deps, 'test')).toEqual([]);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await refundsOf(deposit.txHash)).toEqual([refund]);
  });

  it('leaves a deposit whose refund the workflow opened with its verdict', async () => {
    const record = sessionRecord(shop.merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(service.db.sql, record, 'expired');
    const ref = { chain: 'base' as const, txHash: `0x${randomBytes(32).toString('hex')}`, logIndex: 0 };
    await upsertDeposits(service.db.sql, { chain: 'base', network: 'testnet' }, [
      {
        sessionId: record.sessionId,
        token: 'USDC',
        txHash: ref.txHash,
        logIndex: 0,
        amount: 3_000_000n,
        fromAddress: '0xpayer',
        toAddress: '0xdeposit',
        blockNumber: 11n,
        blockHash: '0xbh',
      },
    ]);
    await markConfirmed(service.db.sql, ref, '0xbh', 64);
    const recordDeposit = createRecordDeposit({ sql: worker, refundClaimDays: 30, startRefund: deps.startRefund });
    const state: DepositState = {
      ...ref,
      token: 'USDC',
      amount: '3000000',
      fromAddress: '0xpayer',
      toAddress: '0xdeposit',
      blockNumber: '11',
      blockHash: '0xbh',
      stage: 'confirmed',
      confirmations: 64,
      late: true,
    };
    await recordDeposit(record.sessionId, 'test', state, '0');
    const [byVerdict] = await refundsOf(ref.txHash);
    expect(byVerdict).toMatchObject({ source: 'late_deposit', status: 'pending_claim' });

    expect(await openMissingDepositRefunds(deps, 'test')).toEqual([]);
    expect(await refundsOf(ref.txHash)).toEqual([byVerdict]);
  });
});
