// A refund row written by the roles that talk to the internet, with a destination and an amount of the attacker's
// choosing: the worker's role inserts refunds and the API's claims them, so together they can name any deposit, any
// amount and any address. The signer pays only what the indexer's facts and its own rows back
// (docs/refunds.md#payment): the share of a deposit the merchant's price took, money that never arrived, and another
// session's deposit are refused, with nothing written and nothing sent.
import { randomBytes } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { usePayoutFixture, type PayoutFixture } from '../activities/settlement/payoutFixture';
import { claimedRefund, payRefundOnce, refundPayerOf } from '../support/refundPayments';
import type { RefundSource } from '../../domain/refunds/refundSource';

let f: PayoutFixture;
let api: Sql;
usePayoutFixture((fixture) => (f = fixture));
beforeAll(() => {
  api = createSql(f.db.urlAs('checkout_api'), { max: 2 });
});
afterAll(async () => {
  await api?.end({ timeout: 5 });
});

/** Inserted by the worker's role, claimed to the attacker's wallet by the API's, as a forger holding both would. */
async function forged(
  row: { sessionId: string; merchantId: string; source: RefundSource; txHash: string; amount: bigint },
  attacker: string,
) {
  const { request } = await claimedRefund(
    f.worker,
    {
      sessionId: row.sessionId,
      merchantId: row.merchantId,
      source: row.source,
      deposit: { chain: 'solana', txHash: row.txHash, logIndex: 1 },
      amountBaseUnits: row.amount,
    },
    { claimed: false },
  );
  await api`update refunds set status = 'claimed', destination_chain = 'solana', destination_token = 'USDC',
              destination_address = ${attacker}, claimed_at = now() where id = ${request.refundId}`;
  return request;
}

it('refuses forged refunds of a paid session: its price, money that never arrived, another session’s deposit', async () => {
  const deps = refundPayerOf(f, await f.treasury({ usdc: 100_000_000n }));
  const attacker = (await generateKeyPairSigner()).address;
  const txHash = randomBytes(32).toString('hex');
  // A $5 session paid exactly 5 USDC, credited: every unit of it is the merchant's.
  const paid = await f.payment(5_000_000n, () => [{ amount: 5_000_000n, txHash }]);
  const [{ session_id: sessionId }] = await f.db.sql<
    [{ session_id: string }]
  >`select session_id from payments where id = ${paid.request.paymentId}`;
  const [otherTx, thirdTx] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
  const other = await f.payment(1_000_000n, () => [{ amount: 1_000_000n, txHash: otherTx }]);
  await f.payment(1_000_000n, () => [{ amount: 1_000_000n, txHash: thirdTx }]);
  const [{ session_id: otherSession }] = await f.db.sql<
    [{ session_id: string }]
  >`select session_id from payments where id = ${other.request.paymentId}`;
  const before = await f.db.sql`select count(*)::int as n from ledger_entries`;

  const cases: [Parameters<typeof forged>[0], RegExp][] = [
    [{ sessionId, merchantId: paid.request.merchantId, source: 'overpayment', txHash, amount: 5_000_000n }, /the price took 5000000/],
    [
      { sessionId: otherSession, merchantId: other.request.merchantId, source: 'late_deposit', txHash: otherTx, amount: 50_000_000n },
      /asked of a deposit of 1000000/,
    ],
    // The deposit is real, but not this session's: its indexer row names another.
    [
      { sessionId: otherSession, merchantId: other.request.merchantId, source: 'wrong_token', txHash: thirdTx, amount: 1_000_000n },
      /recorded no such deposit for its session/,
    ],
  ];
  for (const [row, reason] of cases) {
    const request = await forged(row, attacker);
    expect(await payRefundOnce(deps, request)).toEqual({ status: 'failed', reason: expect.stringMatching(reason) });
    expect(await f.db.sql`select count(*)::int as n from refund_payouts where refund_id = ${request.refundId}`).toEqual([{ n: 0 }]);
    expect(await f.db.sql`select count(*)::int as n from chain_intents where id = ${`refund:${request.refundId}`}`).toEqual([{ n: 0 }]);
  }
  f.chain.produce();
  expect(await f.usdcBalance(attacker)).toBeUndefined();
  expect(await f.db.sql`select count(*)::int as n from ledger_entries`).toEqual(before);
});

it("refuses a merchant's refund of one merchant's paid session charged to another merchant's receivable", async () => {
  const treasury = await f.treasury({ usdc: 50_000_000n });
  const deps = refundPayerOf(f, treasury, { merchantReceivableLimit: 100_000_000n });
  const attackers = await f.payment(2_000_000n);
  await f.payUntilConfirmed(treasury, attackers.request);
  const victim = await f.payment(1_000_000n);
  const [{ session_id: sessionId }] = await f.db.sql<
    [{ session_id: string }]
  >`select session_id from payments where id = ${attackers.request.paymentId}`;
  const { request, destination } = await claimedRefund(api, {
    sessionId,
    merchantId: victim.request.merchantId,
    source: 'merchant',
    amountBaseUnits: 2_000_000n,
  });
  expect(await payRefundOnce(deps, request)).toEqual({
    status: 'failed',
    reason: expect.stringMatching(new RegExp(`belongs to merchant ${attackers.request.merchantId}, not to ${victim.request.merchantId}`)),
  });
  f.chain.produce();
  expect(await f.usdcBalance(destination)).toBeUndefined();
  expect(await f.db.sql`select count(*)::int as n from refund_payouts where refund_id = ${request.refundId}`).toEqual([{ n: 0 }]);
});

it('the worker and the API cannot write a refund payment themselves', async () => {
  for (const role of [f.worker, api])
    await expect(
      role`insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, intent_id, treasury)
           values ('ref_00000000000000000000000000', 'test', 'solana', 'USDC', 'x', 1, 'refund:x', 'x')`,
    ).rejects.toMatchObject({ code: '42501' });
});

it('the worker cannot insert a refund that already names where it goes, nor claim one it inserted', async () => {
  const { request: paid } = await f.payment(1_000_000n);
  const [session] = await f.db.sql<{ session_id: string }[]>`select session_id from payments where id = ${paid.paymentId}`;
  const attacker = (await generateKeyPairSigner()).address;
  const base = `insert into refunds (id, mode, merchant_id, session_id, source, token, chain, amount_base_units, amount_usd_micros,
                                     expires_at`;
  const values = `values ('ref_${randomBytes(13).toString('hex').toUpperCase()}', 'test', '${paid.merchantId}', '${session!.session_id}',
                          'merchant', 'USDC', 'solana', 1000000, 1000000, now() + interval '1 day'`;
  await expect(
    f.worker.unsafe(`${base}, status, destination_chain, destination_token, destination_address)
                     ${values}, 'claimed', 'solana', 'USDC', '${attacker}')`),
  ).rejects.toMatchObject({ code: '42501' });
  // What it may insert waits for a claim, and a claimed status needs the destination only the API writes.
  await expect(f.worker.unsafe(`${base}, status) ${values}, 'claimed')`)).rejects.toMatchObject({ code: '42501' });
  const [inserted] = await f.worker.unsafe<{ id: string; status: string }[]>(`${base}) ${values}) returning id, status`);
  expect(inserted?.status).toBe('pending_claim');
  await expect(f.worker.unsafe(`update refunds set status = 'claimed' where id = '${inserted!.id}'`)).rejects.toMatchObject({
    code: '23514',
  });
  await expect(
    f.worker.unsafe(`update refunds set destination_address = '${attacker}' where id = '${inserted!.id}'`),
  ).rejects.toMatchObject({ code: '42501' });
});
