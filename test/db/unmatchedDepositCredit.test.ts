// The database side of crediting an unmatched deposit (activities/payments/creditUnmatchedDeposit.ts), as the worker's
// role writes it: a refund claimed meanwhile refuses the credit and nothing is written; a refund still waiting is
// cancelled, the deposit credited and its ledger moved from owed back to pending for the merchant, in one
// transaction, and a retry finds it done.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { createUnmatchedDepositCredit } from '../../activities/payments/creditUnmatchedDeposit';
import { createRecordDeposit } from '../../activities/payments/recordDeposit';
import { loadChainsConfig } from '../../config/chains';
import { createSql, type Sql } from '../../db/client';
import { moveRefund } from '../../db/repositories/refunds';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { DepositState } from '../../domain/session/deposit';
import { paymentIdForSession } from '../../domain/wire/ids';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { CUSTOMER_WALLET } from '../support/refunds';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;
let worker: Sql;
const told: string[] = [];
const started: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

const credit = () =>
  createUnmatchedDepositCredit({
    sql: worker,
    network: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig({}))),
    tellRefund: async (id) => void told.push(id),
    refundClaimDays: 30,
    startRefund: async (refund) => void started.push(refund.id),
  });

/** A $10 session that chose USDT on tron and received `amount` USDC on tron (10 by default): kept for a refund, its refund opened. */
async function paidInTheWrongToken(amount = '10000000') {
  const { merchant } = await createTestMerchant(db.sql);
  const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), amountUsdCents: '1000' };
  await insertSessionRecord(db.sql, record, 'awaiting_payment');
  const paymentId = paymentIdForSession(record.sessionId);
  await db.sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
               values (${paymentId}, ${record.sessionId}, 'USDT', 'tron', 'TDeposit', '10000000', '0', 6)`;
  const txHash = randomBytes(32).toString('hex');
  await db.sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited, late)
               values ('tron', ${txHash}, 0, 'testnet', ${record.sessionId}, 'USDC', ${amount}, 'TPayer', 'TDeposit', 10, 'bh', 'confirmed', 19, false, true)`;
  const deposit: DepositState = {
    chain: 'tron',
    txHash,
    logIndex: 0,
    token: 'USDC',
    amount,
    toAddress: 'TDeposit',
    fromAddress: 'TPayer',
    blockNumber: '10',
    blockHash: 'bh',
    stage: 'confirmed',
    confirmations: 19,
    late: true,
  };
  await createRecordDeposit({ sql: worker, refundClaimDays: 30, startRefund: async () => undefined })(
    record.sessionId,
    'test',
    deposit,
    '0',
  );
  const [refund] = await db.sql<{ id: string }[]>`select id from refunds where session_id = ${record.sessionId} and source = 'wrong_token'`;
  return { sessionId: record.sessionId, paymentId, ref: { chain: 'tron' as const, txHash, logIndex: 0 }, refundId: refund!.id };
}

async function state(sessionId: string, paymentId: string, refundId: string) {
  return {
    refund: await db.sql`select status, status_reason from refunds where id = ${refundId}`,
    deposit: await db.sql`select credited, late from deposits where session_id = ${sessionId}`,
    payment: await db.sql`select received_base_units::text as received from payments where id = ${paymentId}`,
    ledger: await db.sql`
      select group_id, account, amount::text as amount from ledger_entries
      where reference in (select 'deposit:' || chain || ':' || tx_hash || ':' || log_index from deposits where session_id = ${sessionId})
      order by group_id, account`,
  };
}

describe('creditUnmatchedDeposit', () => {
  it('refuses a deposit whose refund was claimed meanwhile and writes nothing', async () => {
    const { sessionId, paymentId, ref, refundId } = await paidInTheWrongToken();
    expect(
      (await moveRefund(db.sql, refundId, 'claim', { destination: { chain: 'solana', token: 'USDC', address: CUSTOMER_WALLET } })).ok,
    ).toBe(true);
    await db.sql`update payments set token = 'USDC' where id = ${paymentId}`;
    const before = await state(sessionId, paymentId, refundId);
    const outcome = await credit().creditUnmatchedDeposit({
      sessionId,
      mode: 'test',
      deposit: ref,
      creditedTotalBaseUnits: '10000000',
      by: 'a test',
    });
    expect(outcome).toEqual({ credited: false, refusal: 'Its refund is claimed, no longer waiting for a claim' });
    expect(await state(sessionId, paymentId, refundId)).toEqual(before);
    expect(told).not.toContain(refundId);
  });

  it('cancels a refund still waiting, credits the deposit and moves what pays the price to the merchant; a retry finds it done', async () => {
    const { sessionId, paymentId, ref, refundId } = await paidInTheWrongToken();
    // The workflow switched the payment to the deposit's pair first, as a customer's choice would.
    await db.sql`update payments set token = 'USDC' where id = ${paymentId}`;
    const activity = credit();
    const request = { sessionId, mode: 'test' as const, deposit: ref, creditedTotalBaseUnits: '10000000', by: 'a test' };
    expect(await activity.creditUnmatchedDeposit(request)).toEqual({ credited: true, refundId });
    const after = await state(sessionId, paymentId, refundId);
    expect(after).toEqual({
      refund: [{ status: 'cancelled', status_reason: 'credited to the session by a test' }],
      deposit: [{ credited: true, late: false }],
      payment: [{ received: '10000000' }],
      ledger: [
        { group_id: `deposit:tron:${ref.txHash}:0`, account: 'deposits:tron', amount: '10000000' },
        { group_id: `deposit:tron:${ref.txHash}:0`, account: 'refund_due:tron', amount: '-10000000' },
        { group_id: `deposit:tron:${ref.txHash}:0:credited`, account: 'merchant_pending:tron', amount: '-10000000' },
        { group_id: `deposit:tron:${ref.txHash}:0:credited`, account: 'refund_due:tron', amount: '10000000' },
      ],
    });
    expect(told).toEqual([refundId]);
    expect(await activity.creditUnmatchedDeposit(request)).toEqual({ credited: true, refundId });
    expect(await state(sessionId, paymentId, refundId)).toEqual(after);
  });

  it('refunds the excess of a credited deposit that overpays, as the next generation of its refunds', async () => {
    const { sessionId, paymentId, ref, refundId } = await paidInTheWrongToken('12000000');
    await db.sql`update payments set token = 'USDC' where id = ${paymentId}`;
    const request = { sessionId, mode: 'test' as const, deposit: ref, creditedTotalBaseUnits: '12000000', by: 'a test' };
    expect(await credit().creditUnmatchedDeposit(request)).toEqual({ credited: true, refundId });
    const refunds = await db.sql<
      { id: string; source: string; status: string; amount: string; generation: number; reissue_of: string | null }[]
    >`
      select id, source, status, amount_base_units::text as amount, generation, reissue_of from refunds
      where session_id = ${sessionId} order by generation`;
    expect(refunds).toEqual([
      { id: refundId, source: 'wrong_token', status: 'cancelled', amount: '12000000', generation: 1, reissue_of: null },
      { id: expect.any(String), source: 'overpayment', status: 'pending_claim', amount: '2000000', generation: 2, reissue_of: refundId },
    ]);
    expect(started).toContain(refunds[1]!.id);
    const [owed] = await db.sql<{ amount: string }[]>`
      select sum(amount)::text as amount from ledger_entries where account = 'refund_due:tron' and reference = ${`deposit:tron:${ref.txHash}:0`}`;
    expect(owed?.amount).toBe('-2000000');
    // Again: the credit is done, and the excess keeps its one refund.
    expect(await credit().creditUnmatchedDeposit(request)).toEqual({ credited: true, refundId });
    const [count] = await db.sql<{ n: number }[]>`select count(*)::int as n from refunds where session_id = ${sessionId}`;
    expect(count?.n).toBe(2);
  });
});
