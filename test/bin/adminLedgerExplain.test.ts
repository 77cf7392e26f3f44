// `checkout-admin ledger explain` (test/support/adminCli.ts): every ledger posting of one payment, found by its session or
// its payment id (its deposits' postings, its payout's, and any posting that names it, whatever its accounts), where
// its units are now, and the sweeps of its deposit address; postings of other payments are not shown.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLedger } from '../../db/repositories/ledger';
import { payoutChainCosts } from '../../domain/ledger/ledger';
import { creditedAndSettled } from '../support/depositPostings';
import { markConfirmed, upsertDeposits } from '../../indexers/core/depositStore';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant } from '../support/factories';
import { insertTestPayout, type TestPayout } from '../support/payouts';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let payment: TestPayout;
const cli = adminCli(() => service);

beforeAll(async () => {
  service = await startTestService({ worker: false });
  const sql = service.db.sql;
  const { merchant } = await createTestMerchant(sql);
  payment = await insertTestPayout(sql, merchant.id, { status: 'confirmed', amount: 5_000_000n });
  const other = await insertTestPayout(sql, merchant.id, { status: 'confirmed', amount: 7_000_000n });
  const deposit = { chain: 'solana' as const, txHash: randomBytes(32).toString('hex'), logIndex: 2 };
  await upsertDeposits(sql, { chain: 'solana', network: 'testnet' }, [
    {
      ...deposit,
      sessionId: payment.sessionId,
      token: 'USDC',
      amount: 6_000_000n,
      fromAddress: 'customer',
      toAddress: 'deposit',
      blockNumber: 1n,
      blockHash: 'ab',
    },
  ]);
  await markConfirmed(sql, deposit, 'ab', 32);
  for (const posting of creditedAndSettled({ ...deposit, token: 'USDC', merchantId: merchant.id, mode: 'test', amount: 6_000_000n }))
    await postLedger(sql, posting);
  await postLedger(sql, payoutChainCosts({ paymentId: payment.paymentId, mode: 'test' }, { feeLamports: 5_000n, rentLamports: 0n })!);
  // An account this build has never defined, in a posting that names the payment: shown like any other.
  await postLedger(sql, {
    groupId: `refund-due:${payment.paymentId}`,
    mode: 'test',
    reference: `refund:${payment.paymentId}`,
    entries: [
      { account: `merchant_payable:${merchant.id}`, asset: 'usdc:solana', amount: 1_000_000n },
      { account: `customer_refund_due:${payment.paymentId}`, asset: 'usdc:solana', amount: -1_000_000n },
    ],
  });
  expect(other.paymentId).not.toBe(payment.paymentId);
});
afterAll(async () => {
  await service?.stop();
});

describe('checkout-admin ledger explain', { timeout: 120_000 }, () => {
  it('prints every posting of the payment and where each unit is now, by payment id', async () => {
    const run = await cli.run(['ledger', 'explain', payment.paymentId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^test payment ${payment.paymentId} \\(session ${payment.sessionId}, confirming\\): 12 ledger entries in 6 groups$`, 'm'),
    );
    expect(run.stdout).toMatch(new RegExp(`payout:${payment.paymentId}:reserve\\s+payouts_in_flight\\s+usdc:solana\\s+-5\\.000000`));
    expect(run.stdout).toMatch(/deposit:solana:\S+:2\s+deposits:solana\s+usdc:solana\s+6\.000000/);
    const now = run.stdout.slice(run.stdout.indexOf('where each unit is now'));
    expect(now).toMatch(/sol:solana\s+gas_expense:solana\s+0\.000005000/);
    expect(now).toMatch(new RegExp(`usdc:solana\\s+customer_refund_due:${payment.paymentId}\\s+-1\\.000000`));
    expect(now).toMatch(/usdc:solana\s+deposits:solana\s+6\.000000/);
    expect(now).toMatch(/usdc:solana\s+treasury:solana\s+-5\.000000/);
    expect(now).not.toMatch(/merchant_payable|payouts_in_flight/);
  });

  it('answers the same by session id, as JSON', async () => {
    const out = (await cli.json(['ledger', 'explain', payment.sessionId])) as {
      payment_id: string;
      postings: Array<{ group_id: string; account: string; asset: string; amount: string }>;
      holdings: Array<{ asset: string; account: string; amount: string }>;
    };
    expect(out.payment_id).toBe(payment.paymentId);
    expect(out.postings).toHaveLength(12);
    expect(out.postings.every((p) => p.group_id.includes(payment.paymentId) || p.group_id.startsWith('deposit:solana:'))).toBe(true);
    expect(out.holdings).toContainEqual({ asset: 'usdc:solana', account: 'treasury:solana', amount: '-5000000' });
    expect(out.holdings.reduce((sum, h) => (h.asset === 'usdc:solana' ? sum + BigInt(h.amount) : sum), 0n)).toBe(0n);
  });

  it('refuses an id of another kind, and a session that does not exist', async () => {
    expectOneLineError(
      await cli.run(['ledger', 'explain', 'mer_01HZZZZZZZZZZZZZZZZZZZZZZZ']),
      2,
      /session id \(cs_…\) or a payment id \(pay_…\)/,
    );
    expectOneLineError(
      await cli.run(['ledger', 'explain', 'pay_01HZZZZZZZZZZZZZZZZZZZZZZZ']),
      1,
      /session cs_01HZZZZZZZZZZZZZZZZZZZZZZZ does not exist/,
    );
  });
});
