// A payout collects what its merchant owes for refunds of money already paid out (docs/refunds.md#funding), on real SPL
// programs (litesvm) and a real Postgres reached as the signer's role: the merchant's wallet rises by exactly the
// payout's gross less the receivable it nets, the receivable falls by as much, and the ledger balances per asset; a
// receivable at or above the gross takes all of it and nothing is signed or sent. A merchant's refunds and payouts
// take one lock, so neither counts what the other is writing.
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import type { Base64EncodedWireTransaction } from '@solana/kit';
import { findPayout, startNextPayoutGeneration } from '../../../db/repositories/payouts';
import { transfer } from '../../../toolchain/localSolana/splToken';
import { lockMerchantReceivable } from '../../../db/repositories/merchantReceivable';
import { setMerchantFee } from '../../../db/repositories/merchants';
import { ACCOUNT } from '../../../domain/ledger/ledger';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import { createSolanaChainWriter } from '../../../signer/chainWrites/solanaChainWriter';
import { createTreasuryPayout, payoutSigner, recordPayout, type TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { recordRefundPayment } from '../../../signer/refunds/refundPayment';
import { usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';
import { claimedRefund, payRefundUntilDone, refundPayerOf } from '../../support/refundPayments';

let f: PayoutFixture;
usePayoutFixture((fixture) => (f = fixture));

const sessionOf = async (paymentId: string) =>
  (await f.db.sql<[{ session_id: string }]>`select session_id from payments where id = ${paymentId}`)[0].session_id;

const receivableOf = async (merchantId: string) =>
  BigInt(
    (
      await f.db.sql<[{ owed: string }]>`
        select coalesce(sum(amount), 0)::text as owed from ledger_entries where account = ${ACCOUNT.merchantReceivable(merchantId)}`
    )[0].owed,
  );

/** A merchant paid 5 USDC for a session and then refunding `owed` of it: it owes `owed`, its refund landed. */
async function merchantOwing(treasury: TreasuryPayoutDeps, owed: bigint) {
  const paid = await f.payment(5_000_000n);
  await f.payUntilConfirmed(treasury, paid.request);
  const refund = await claimedRefund(f.db.sql, {
    sessionId: await sessionOf(paid.request.paymentId),
    merchantId: paid.request.merchantId,
    source: 'merchant',
    amountBaseUnits: owed,
  });
  expect(await payRefundUntilDone(f, refundPayerOf(f, treasury, { merchantReceivableLimit: 100_000_000n }), refund.request)).toMatchObject({
    status: 'confirmed',
  });
  expect(await receivableOf(paid.request.merchantId)).toBe(owed);
  return paid;
}

const sends = () => f.rpcServer.calls.get('sendTransaction') ?? 0;

describe('a payout nets what its merchant owes', () => {
  it('transfers the gross less the receivable: the wallet rises by exactly that, the receivable is repaid', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 2_000_000n);
    const before = (await f.usdcBalance(owing.wallet)) as bigint;
    const next = await f.payment(10_000_000n, undefined, { merchantOf: owing });

    expect(await f.payUntilConfirmed(treasury, next.request)).toMatchObject({ status: 'confirmed' });
    expect((await f.usdcBalance(owing.wallet)) as bigint).toBe(before + 8_000_000n);
    expect(await receivableOf(owing.request.merchantId)).toBe(0n);
    expect(await findPayout(f.db.sql, next.request.paymentId)).toMatchObject({
      amount: 10_000_000n,
      netted: 2_000_000n,
      status: 'confirmed',
    });
    const reference = `payout:${next.request.paymentId}`;
    expect(
      await f.db.sql`select group_id, account, amount::text from ledger_entries
        where reference = ${reference} and asset = 'usdc:solana' order by id`,
    ).toEqual([
      { group_id: `${reference}:netted`, account: ACCOUNT.merchantPayable(owing.request.merchantId), amount: '2000000' },
      { group_id: `${reference}:netted`, account: ACCOUNT.merchantReceivable(owing.request.merchantId), amount: '-2000000' },
      { group_id: `${reference}:reserve`, account: ACCOUNT.merchantPayable(owing.request.merchantId), amount: '8000000' },
      { group_id: `${reference}:reserve`, account: 'payouts_in_flight', amount: '-8000000' },
      { group_id: `${reference}:sent`, account: 'payouts_in_flight', amount: '8000000' },
      { group_id: `${reference}:sent`, account: 'treasury:solana', amount: '-8000000' },
    ]);
    // What the merchant is owed for the payment is settled whole: 2 repaid its debt, 8 sent.
    expect(
      await f.db.sql`select coalesce(sum(amount), 0)::text as owed from ledger_entries
        where account = ${ACCOUNT.merchantPayable(owing.request.merchantId)}`,
    ).toEqual([{ owed: '0' }]);
  });

  it('a receivable at or above the gross takes it all: nothing signed or sent, the payout completes netted', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 3_000_000n);
    const before = await f.usdcBalance(owing.wallet);
    const next = await f.payment(1_500_000n, undefined, { merchantOf: owing });
    const sent = sends();

    const outcome = await createTreasuryPayout(treasury)(next.request);
    expect(outcome).toEqual({ status: 'netted', reference: `netted:${next.request.paymentId}`, confirmedAt: expect.any(String) });
    expect(sends()).toBe(sent);
    expect(await f.usdcBalance(owing.wallet)).toBe(before);
    expect(await receivableOf(owing.request.merchantId)).toBe(1_500_000n);
    expect(await findPayout(f.db.sql, next.request.paymentId)).toMatchObject({
      amount: 1_500_000n,
      netted: 1_500_000n,
      status: 'netted',
      intentId: null,
      signature: null,
    });
    expect(await f.db.sql`select count(*)::int as n from chain_intents where id = ${`payout:${next.request.paymentId}`}`).toEqual([
      { n: 0 },
    ]);
    // Asked again, it answers the same and moves nothing.
    expect(await createTreasuryPayout(treasury)(next.request)).toEqual(outcome);
    expect(await receivableOf(owing.request.merchantId)).toBe(1_500_000n);

    // The rest is netted by the next payout, which sends what is left over.
    const third = await f.payment(4_000_000n, undefined, { merchantOf: owing });
    await f.payUntilConfirmed(treasury, third.request);
    expect(await f.usdcBalance(owing.wallet)).toBe((before as bigint) + 2_500_000n);
    expect(await receivableOf(owing.request.merchantId)).toBe(0n);
  });

  it('a refund in flight is not netted: only what landed refunds left owing is', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 1_000_000n);
    // A second refund of the paid session, written (reserved on the receivable) and not landed.
    const pending = await claimedRefund(f.db.sql, {
      sessionId: await sessionOf(owing.request.paymentId),
      merchantId: owing.request.merchantId,
      source: 'merchant',
      amountBaseUnits: 2_000_000n,
    });
    expect(await recordRefundPayment(refundPayerOf(f, treasury, { merchantReceivableLimit: 100_000_000n }), pending.request)).toMatchObject(
      { kind: 'written' },
    );
    expect(await receivableOf(owing.request.merchantId)).toBe(3_000_000n);

    const next = await f.payment(5_000_000n, undefined, { merchantOf: owing });
    await f.payUntilConfirmed(treasury, next.request);
    expect(await findPayout(f.db.sql, next.request.paymentId)).toMatchObject({ netted: 1_000_000n });
    expect(await receivableOf(owing.request.merchantId)).toBe(2_000_000n);
    // The refund then lands: the merchant owes it, for its next payout to net.
    expect(await payRefundUntilDone(f, refundPayerOf(f, treasury), pending.request)).toMatchObject({ status: 'confirmed' });
    expect(await receivableOf(owing.request.merchantId)).toBe(2_000_000n);
  });

  it("waits for the refund side's lock: two payouts of the merchant net what it owes once, never twice", async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 1_000_000n);
    // A second refund, written under the lock and landing while the payouts wait for it.
    const pending = await claimedRefund(f.db.sql, {
      sessionId: await sessionOf(owing.request.paymentId),
      merchantId: owing.request.merchantId,
      source: 'merchant',
      amountBaseUnits: 4_000_000n,
    });
    const payer = refundPayerOf(f, treasury, { merchantReceivableLimit: 100_000_000n });
    expect(await recordRefundPayment(payer, pending.request)).toMatchObject({ kind: 'written' });
    const next = await f.payment(10_000_000n, undefined, { merchantOf: owing });
    const other = await f.payment(10_000_000n, undefined, { merchantOf: owing });
    let written: Promise<unknown> | undefined;
    await f.db.sql.begin(async (tx) => {
      await lockMerchantReceivable(tx, owing.request.merchantId);
      written = Promise.all([createTreasuryPayout(treasury)(next.request), createTreasuryPayout(treasury)(other.request)]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await findPayout(f.db.sql, next.request.paymentId)).toBeUndefined();
      expect(await payRefundUntilDone(f, payer, pending.request)).toMatchObject({ status: 'confirmed' });
    });
    await written;
    const [a, b] = await Promise.all([findPayout(f.db.sql, next.request.paymentId), findPayout(f.db.sql, other.request.paymentId)]);
    // One nets the whole 5 the merchant owes once the refund landed, the other nothing: the receivable is repaid once.
    expect([a?.netted, b?.netted].sort()).toEqual([0n, 5_000_000n]);
    expect(await receivableOf(owing.request.merchantId)).toBe(0n);
    await f.payUntilConfirmed(treasury, next.request);
    await f.payUntilConfirmed(treasury, other.request);
  });

  it("nets only the groups the signer's rows account for: a posting of the worker's to the receivable is not collected", async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 1_000_000n);
    await f.worker`insert into ledger_entries (group_id, account, asset, amount, reference, mode) values
      ('made-up', ${ACCOUNT.merchantReceivable(owing.request.merchantId)}, 'usdc:solana', 6000000, 'made-up', 'test'),
      ('made-up', 'operator_held:solana', 'usdc:solana', -6000000, 'made-up', 'test')`;
    const next = await f.payment(10_000_000n, undefined, { merchantOf: owing });
    await f.payUntilConfirmed(treasury, next.request);
    expect(await findPayout(f.db.sql, next.request.paymentId)).toMatchObject({ netted: 1_000_000n });
  });
});

describe('a netted payout whose transaction lands and fails', () => {
  it('releases only its transfer, the netting stands; paid again under a new generation, it sends the transfer once', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 2_000_000n);
    const before = (await f.usdcBalance(owing.wallet)) as bigint;
    const next = await f.payment(10_000_000n, undefined, { merchantOf: owing });
    const payout = await recordPayout(treasury, next.request);
    await createSolanaChainWriter(treasury).sign(payout.intentId as string, payoutSigner(treasury, payout));
    const signed = await f.intentOf(next.request.paymentId);
    // The treasury is emptied after signing, and the stored bytes reach a leader without preflight: they execute and fail.
    const elsewhere = await f.treasury({ usdc: 0n });
    const held = (await f.usdcBalance(treasury.treasury.address)) as bigint;
    await transfer(f.chain, f.usdc, treasury.treasury, [{ to: elsewhere.treasury.address, amount: held }]);
    await treasury.rpc
      .sendTransaction(signed.wireTransaction as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true })
      .send();
    f.chain.produce();
    await expect(createTreasuryPayout(treasury)(next.request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutFailed });

    const payable = ACCOUNT.merchantPayable(owing.request.merchantId);
    const owed = async () =>
      (await f.db.sql<[{ owed: string }]>`select coalesce(sum(amount), 0)::text as owed from ledger_entries where account = ${payable}`)[0]
        .owed;
    // Owed the transfer again; the debt stays repaid.
    expect(await owed()).toBe('-8000000');
    expect(await receivableOf(owing.request.merchantId)).toBe(0n);

    const again = await startNextPayoutGeneration(f.db.sql, next.request.paymentId, 'operator');
    expect(again).toMatchObject({ generation: 2, amount: 10_000_000n, netted: 2_000_000n, status: 'pending' });
    await f.topUp(treasury.treasury, 20_000_000n);
    await f.payUntilConfirmed(treasury, next.request);
    expect(await f.usdcBalance(owing.wallet)).toBe(before + 8_000_000n);
    expect(await owed()).toBe('0');
    expect(await receivableOf(owing.request.merchantId)).toBe(0n);
    expect(
      await f.db
        .sql`select group_id, amount::text from ledger_entries where account = ${payable} and reference like ${`payout:${next.request.paymentId}%`} order by id`,
    ).toEqual([
      { group_id: `payout:${next.request.paymentId}:netted`, amount: '2000000' },
      { group_id: `payout:${next.request.paymentId}:reserve`, amount: '8000000' },
      { group_id: `payout:${next.request.paymentId}:release`, amount: '-8000000' },
      { group_id: `payout:${next.request.paymentId}:2:reserve`, amount: '8000000' },
    ]);
  });
});

describe("a merchant's refund of a netted payout's session", () => {
  it("is backed by the payout's gross: the netted part was the merchant's, paid to its debt", async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 3_000_000n);
    const whole = await f.payment(1_500_000n, undefined, { merchantOf: owing });
    expect(await createTreasuryPayout(treasury)(whole.request)).toMatchObject({ status: 'netted' });
    const part = await f.payment(4_000_000n, undefined, { merchantOf: owing });
    await f.payUntilConfirmed(treasury, part.request);
    expect(await findPayout(f.db.sql, part.request.paymentId)).toMatchObject({ netted: 1_500_000n });
    const payer = refundPayerOf(f, treasury, { merchantReceivableLimit: 100_000_000n });
    const refundOf = async (paymentId: string, amountBaseUnits: bigint) =>
      (
        await claimedRefund(f.db.sql, {
          sessionId: await sessionOf(paymentId),
          merchantId: owing.request.merchantId,
          source: 'merchant',
          amountBaseUnits,
        })
      ).request;

    expect(await payRefundUntilDone(f, payer, await refundOf(whole.request.paymentId, 1_500_000n))).toMatchObject({ status: 'confirmed' });
    expect(await payRefundUntilDone(f, payer, await refundOf(part.request.paymentId, 4_000_000n))).toMatchObject({ status: 'confirmed' });
    expect(await payRefundUntilDone(f, payer, await refundOf(part.request.paymentId, 20_000n))).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/paid the merchant 4000000 of which 4000000 was refunded already/),
    });
    expect(await receivableOf(owing.request.merchantId)).toBe(5_500_000n);
  });
});

describe("the operator's fee of a payout (docs/settlement.md#fees)", () => {
  it('comes off the gross before the netting, as the row was written: a later fee change alters nothing written', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 2_000_000n);
    const merchantId = owing.request.merchantId;
    await setMerchantFee(f.db.sql, merchantId, { bps: 150, fixedCents: 10n });
    const before = (await f.usdcBalance(owing.wallet)) as bigint;
    const next = await f.payment(10_000_000n, undefined, { merchantOf: owing });

    // 1.5 % of 10 USDC and 10 cents: 0.25 USDC, fixed as the row is written.
    expect(await recordPayout(treasury, next.request)).toMatchObject({ amount: 10_000_000n, fee: 250_000n, netted: 2_000_000n });
    await setMerchantFee(f.db.sql, merchantId, { bps: 5_000, fixedCents: 0n });
    expect(await f.payUntilConfirmed(treasury, next.request)).toMatchObject({ status: 'confirmed' });
    expect((await f.usdcBalance(owing.wallet)) as bigint).toBe(before + 7_750_000n);
    const reference = `payout:${next.request.paymentId}`;
    expect(
      await f.db.sql`select group_id, account, amount::text from ledger_entries
        where reference = ${reference} and asset = 'usdc:solana' and group_id like '%:fee' order by id`,
    ).toEqual([
      { group_id: `${reference}:fee`, account: ACCOUNT.merchantPayable(merchantId), amount: '250000' },
      { group_id: `${reference}:fee`, account: ACCOUNT.operatorRevenue, amount: '-250000' },
    ]);
    expect(
      await f.db
        .sql`select coalesce(sum(amount), 0)::text as owed from ledger_entries where account = ${ACCOUNT.merchantPayable(merchantId)}`,
    ).toEqual([{ owed: '0' }]);

    // The fee now set (50 %) and a receivable of nothing: the next payout sends half.
    const third = await f.payment(4_000_000n, undefined, { merchantOf: owing });
    await f.payUntilConfirmed(treasury, third.request);
    expect((await f.usdcBalance(owing.wallet)) as bigint).toBe(before + 9_750_000n);
  });

  it('a fee as large as the payout takes it whole: nothing signed or sent, the payout completes netted', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const paid = await f.payment(50_000n);
    await setMerchantFee(f.db.sql, paid.request.merchantId, { bps: 0, fixedCents: 5n });
    const sent = sends();
    expect(await createTreasuryPayout(treasury)(paid.request)).toMatchObject({ status: 'netted' });
    expect(sends()).toBe(sent);
    expect(await findPayout(f.db.sql, paid.request.paymentId)).toMatchObject({ amount: 50_000n, fee: 50_000n, netted: 0n, intentId: null });
  });

  it('refuses at signing a row whose fee the ledger does not record: never more than the gross less the posted fee', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const paid = await f.payment(10_000_000n);
    await setMerchantFee(f.db.sql, paid.request.merchantId, { bps: 100, fixedCents: 0n });
    const payout = await recordPayout(treasury, paid.request);
    await f.db.sql`update payouts set fee_base_units = 0 where payment_id = ${paid.request.paymentId}`;
    const rewritten = (await findPayout(f.db.sql, paid.request.paymentId))!;
    const sign = () => createSolanaChainWriter(treasury).sign(payout.intentId as string, payoutSigner(treasury, rewritten));
    await expect(new MockActivityEnvironment().run(sign)).rejects.toMatchObject({ type: WorkflowFailure.PayoutRefused });
    expect(await f.intentOf(paid.request.paymentId)).toMatchObject({ status: 'prepared', signature: null });
    await f.db.sql`update payouts set fee_base_units = 100000 where payment_id = ${paid.request.paymentId}`;
    await f.payUntilConfirmed(treasury, paid.request);
    expect(await f.usdcBalance(paid.wallet)).toBe(9_900_000n);
  });
});

describe('at signing', () => {
  it('refuses a row whose netting the ledger does not record: the gross is never transferred', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const owing = await merchantOwing(treasury, 2_000_000n);
    const next = await f.payment(10_000_000n, undefined, { merchantOf: owing });
    const payout = await recordPayout(treasury, next.request);
    // A row told it netted nothing (as a role other than the signer could not, the schema owner here).
    await f.db.sql`update payouts set netted_base_units = 0 where payment_id = ${next.request.paymentId}`;
    const rewritten = (await findPayout(f.db.sql, next.request.paymentId))!;
    const sign = () => createSolanaChainWriter(treasury).sign(payout.intentId as string, payoutSigner(treasury, rewritten));
    await expect(new MockActivityEnvironment().run(sign)).rejects.toMatchObject({
      type: WorkflowFailure.PayoutRefused,
    });
    expect(await f.intentOf(next.request.paymentId)).toMatchObject({ status: 'prepared', signature: null });
    // Put back and paid: 8 sent, the ledger whole.
    await f.db.sql`update payouts set netted_base_units = 2000000 where payment_id = ${next.request.paymentId}`;
    await f.payUntilConfirmed(treasury, next.request);
  });
});
