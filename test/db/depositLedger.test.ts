// A session's deposits in the ledger, as the worker's role posts them: a credited deposit split at its verdict between
// the merchant (pending, the units that pay its price) and the customer (the excess), the pending part owed in USDC at
// the quoted rate once the payout is accepted, and a confirmed deposit kept for a refund posted as owed back to its
// sender; deposits:<chain> holds all of it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordDeposit } from '../../activities/payments/recordDeposit';
import { createRefundUnderpaidSession } from '../../activities/refunds/underpaidExpiry';
import { createSql, type Sql } from '../../db/client';
import { postDepositsSettled, postRefundOnlyDeposits, postUnpostedCreditedDeposits } from '../../db/repositories/depositLedger';
import { insertSessionRecord } from '../../db/repositories/sessions';
import type { DepositState } from '../../domain/session/deposit';
import { paymentIdForSession } from '../../domain/wire/ids';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;
let worker: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

/** A $100 session paid in USDT on tron, quoted at 0.95: 105.263158 USDT asked for. */
async function usdtSession() {
  const { merchant } = await createTestMerchant(db.sql);
  const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), amountUsdCents: '10000' };
  await insertSessionRecord(db.sql, record, 'overpaid');
  const paymentId = paymentIdForSession(record.sessionId);
  await db.sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
               values (${paymentId}, ${record.sessionId}, 'USDT', 'tron', 'TDeposit', '105263158', '0', 6)`;
  return { merchantId: merchant.id, sessionId: record.sessionId, paymentId };
}

/** The indexer's row of a deposit to the session, and the workflow's view of it. */
async function indexed(
  sessionId: string,
  amount: bigint,
  facts: { stage: 'detected' | 'confirmed'; credited: boolean; late: boolean; txHash?: string; block?: number },
): Promise<DepositState> {
  const txHash = facts.txHash ?? randomBytes(32).toString('hex');
  const block = facts.block ?? 10;
  await db.sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited, late)
               values ('tron', ${txHash}, 0, 'testnet', ${sessionId}, 'USDT', ${amount.toString()}, 'TPayer', 'TDeposit', ${block}, 'bh', ${facts.stage}, 19, ${facts.credited}, ${facts.late})`;
  return {
    chain: 'tron',
    txHash,
    logIndex: 0,
    token: 'USDT',
    amount: amount.toString(),
    toAddress: 'TDeposit',
    fromAddress: 'TPayer',
    blockNumber: block.toString(),
    blockHash: 'bh',
    stage: facts.stage,
    confirmations: 19,
    late: facts.late,
  };
}

/** The workflow's activity, with the refund workflows it starts kept instead of started. */
function recorder() {
  const started: string[] = [];
  const recordDeposit = createRecordDeposit({
    sql: worker,
    refundClaimDays: 30,
    startRefund: async (refund) => void started.push(refund.id),
  });
  return { recordDeposit, started };
}

async function refundsOf(sessionId: string) {
  return db.sql<
    { id: string; source: string; deposit_tx_hash: string; amount_base_units: string; amount_usd_micros: string; status: string }[]
  >`
    select id, source, deposit_tx_hash, amount_base_units::text, amount_usd_micros::text, status from refunds where session_id = ${sessionId}`;
}

async function balances(references: string[]) {
  const rows = await db.sql<{ account: string; asset: string; balance: string }[]>`
    select account, asset, sum(amount)::text as balance from ledger_entries where reference = any(${references})
    group by account, asset having sum(amount) <> 0 order by account, asset`;
  return Object.fromEntries(rows.map((r) => [`${r.account} ${r.asset}`, BigInt(r.balance)]));
}

describe('deposit postings', () => {
  it("owes the merchant its $100 for USDT at 0.95 and the customer the 10 USDT beyond the price, on the deposit's chain", async () => {
    const { merchantId, sessionId, paymentId } = await usdtSession();
    const { recordDeposit, started } = recorder();
    // In the order they arrived, whatever their hashes: the first pays most of the price, the second the rest and the excess.
    const first = await indexed(sessionId, 100_000_000n, {
      stage: 'confirmed',
      credited: false,
      late: false,
      txHash: `ff${randomBytes(31).toString('hex')}`,
      block: 10,
    });
    const second = await indexed(sessionId, 15_263_158n, {
      stage: 'confirmed',
      credited: false,
      late: false,
      txHash: `00${randomBytes(31).toString('hex')}`,
      block: 11,
    });
    const references = [first, second].map((d) => `deposit:tron:${d.txHash}:0`);
    await recordDeposit(sessionId, 'test', first, '100000000');
    await recordDeposit(sessionId, 'test', second, '115263158');
    // Credited, before any payout: held at the deposit address, the price's units pending for the merchant.
    expect(await balances(references)).toEqual({
      'deposits:tron usdt:tron': 115_263_158n,
      'merchant_pending:tron usdt:tron': -105_263_158n,
      'refund_due:tron usdt:tron': -10_000_000n,
    });
    // The excess is opened as one overpayment refund of the deposit that carried it, found again by every later verdict.
    await recordDeposit(sessionId, 'test', second, '115263158');
    const [refund, ...others] = await refundsOf(sessionId);
    expect(others).toEqual([]);
    expect(refund).toMatchObject({
      source: 'overpayment',
      deposit_tx_hash: second.txHash,
      amount_base_units: '10000000',
      amount_usd_micros: '10000000',
      status: 'pending_claim',
    });
    expect(started).toEqual([refund!.id, refund!.id]);
    await postDepositsSettled(worker, paymentId);
    await postDepositsSettled(worker, paymentId);
    expect(await balances(references)).toEqual({
      'cross_chain_clearing usdc:solana': 100_000_000n,
      'cross_chain_clearing usdt:tron': -105_263_158n,
      'deposits:tron usdt:tron': 115_263_158n,
      [`merchant_payable:${merchantId} usdc:solana`]: -100_000_000n,
      'refund_due:tron usdt:tron': -10_000_000n,
    });
  });

  it('refunds what credited deposits left pending for a merchant never paid, one refund per deposit beside its excess, once', async () => {
    const { sessionId } = await usdtSession();
    const { recordDeposit } = recorder();
    const first = await indexed(sessionId, 100_000_000n, { stage: 'confirmed', credited: false, late: false, block: 10 });
    const second = await indexed(sessionId, 15_263_158n, { stage: 'confirmed', credited: false, late: false, block: 11 });
    const references = [first, second].map((d) => `deposit:tron:${d.txHash}:0`);
    await recordDeposit(sessionId, 'test', first, '100000000');
    await recordDeposit(sessionId, 'test', second, '115263158');
    const started: string[] = [];
    const refundUnpaid = createRefundUnderpaidSession({
      sql: worker,
      refundClaimDays: 30,
      startRefund: async (r) => void started.push(r.id),
    });
    await refundUnpaid(sessionId);
    await refundUnpaid(sessionId);
    expect(await balances(references)).toEqual({ 'deposits:tron usdt:tron': 115_263_158n, 'refund_due:tron usdt:tron': -115_263_158n });
    const refunds = await refundsOf(sessionId);
    const bySource = (source: string) =>
      refunds
        .filter((r) => r.source === source)
        .map((r) => [r.deposit_tx_hash, r.amount_base_units])
        .sort();
    expect(bySource('overpayment')).toEqual([[second.txHash, '10000000']]);
    expect(bySource('underpaid_expired')).toEqual(
      [
        [first.txHash, '100000000'],
        [second.txHash, '5263158'],
      ].sort(),
    );
    const opened = refunds.filter((r) => r.source === 'underpaid_expired').map((r) => r.id);
    expect(started.sort()).toEqual([...opened, ...opened].sort());
  });

  it('posts the credit of a deposit no workflow posted, once, before comparing or when its payout is accepted', async () => {
    const { sessionId, paymentId } = await usdtSession();
    const credited = await indexed(sessionId, 8_000_000n, { stage: 'confirmed', credited: true, late: false });
    const reference = [`deposit:tron:${credited.txHash}:0`];
    expect(await postUnpostedCreditedDeposits(worker, 'live')).toBe(0);
    expect(await postUnpostedCreditedDeposits(worker, 'test')).toBeGreaterThanOrEqual(1);
    expect(await balances(reference)).toEqual({ 'deposits:tron usdt:tron': 8_000_000n, 'merchant_pending:tron usdt:tron': -8_000_000n });
    await postDepositsSettled(worker, paymentId);
    expect(await balances(reference)).toMatchObject({
      'deposits:tron usdt:tron': 8_000_000n,
      'cross_chain_clearing usdt:tron': -8_000_000n,
    });
  });

  it('posts a confirmed deposit the workflow keeps for a refund as refund due, and nothing for one still confirming', async () => {
    const { sessionId } = await usdtSession();
    const { recordDeposit, started } = recorder();
    const late = await indexed(sessionId, 3_000_000n, { stage: 'confirmed', credited: false, late: false });
    const confirming = await indexed(sessionId, 4_000_000n, { stage: 'detected', credited: false, late: false });
    await recordDeposit(sessionId, 'test', { ...late, late: true }, '0');
    await recordDeposit(sessionId, 'test', { ...late, late: true }, '0');
    await recordDeposit(sessionId, 'test', { ...confirming, late: true }, '0');
    expect(await balances([late, confirming].map((d) => `deposit:tron:${d.txHash}:0`))).toEqual({
      'deposits:tron usdt:tron': 3_000_000n,
      'refund_due:tron usdt:tron': -3_000_000n,
    });
    // The session had closed (overpaid): a late deposit, one refund for all of it, none for the one still confirming.
    const refunds = await refundsOf(sessionId);
    expect(refunds).toMatchObject([
      { source: 'late_deposit', deposit_tx_hash: late.txHash, amount_base_units: '3000000', status: 'pending_claim' },
    ]);
    expect(started).toEqual([refunds[0]!.id, refunds[0]!.id]);
  });

  it('posts the deposits the indexer marked late after the workflow ended, once, and none still confirming or credited', async () => {
    const { sessionId } = await usdtSession();
    const late = await indexed(sessionId, 6_000_000n, { stage: 'confirmed', credited: false, late: true });
    const confirming = await indexed(sessionId, 7_000_000n, { stage: 'detected', credited: false, late: true });
    const credited = await indexed(sessionId, 8_000_000n, { stage: 'confirmed', credited: true, late: false });
    const deposits = [late, confirming, credited].map((d) => `deposit:tron:${d.txHash}:0`);
    expect(await postRefundOnlyDeposits(worker, 'live')).toBe(0);
    expect(await postRefundOnlyDeposits(worker, 'test')).toBe(1);
    expect(await postRefundOnlyDeposits(worker, 'test')).toBe(0);
    expect(await balances(deposits)).toEqual({ 'deposits:tron usdt:tron': 6_000_000n, 'refund_due:tron usdt:tron': -6_000_000n });
  });
});
