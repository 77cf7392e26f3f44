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
  });

/** A $10 session that chose USDT on tron and received 10 USDC on tron: kept for a refund, its refund opened. */
async function paidInTheWrongToken() {
  const { merchant } = await createTestMerchant(db.sql);
  const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), amountUsdCents: '1000' };
  await insertSessionRecord(db.sql, record, 'awaiting_payment');
  const paymentId = paymentIdForSession(record.sessionId);
  await db.sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
               values (${paymentId}, ${record.sessionId}, 'USDT', 'tron', 'TDeposit', '10000000', '0', 6)`;
  const txHash = randomBytes(32).toString('hex');
  await db.sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited, late)
               values ('tron', ${txHash}, 0, 'testnet', ${record.sessionId}, 'USDC', '10000000', 'TPayer', 'TDeposit', 10, 'bh', 'confirmed', 19, false, true)`;
  const deposit: DepositState = {
    chain: 'tron',
    txHash,
    logIndex: 0,
    token: 'USDC',
    amount: '10000000',
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
});
