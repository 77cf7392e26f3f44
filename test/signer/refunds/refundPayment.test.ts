// A claimed refund is paid from the Solana USDC treasury exactly once, on real SPL programs (litesvm) behind the
// JSON-RPC layer and a real Postgres reached as the signer's role: the customer's USDC rises by the amount less the
// fee, in one transaction, booked in a balanced ledger; asked again, killed after signing or after broadcasting, it
// still lands once; a refund the facts do not back is refused with nothing written.
import { randomBytes } from 'node:crypto';
import { generateKeyPairSigner, type Base64EncodedWireTransaction } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { findChainIntent, type ChainIntent } from '../../../db/repositories/chainIntents';
import { findRefundPayout } from '../../../db/repositories/refundPayouts';
import { moveRefund } from '../../../db/repositories/refunds';
import { associatedUsdcAccount } from '../../../domain/addresses/solanaTokenAccount';
import { ACCOUNT, depositCredited } from '../../../domain/ledger/ledger';
import { postLedger } from '../../../db/repositories/ledger';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import type { RefundPaymentRequest } from '../../../domain/refunds/refundPayment';
import { createSolanaChainWriter } from '../../../signer/chainWrites/solanaChainWriter';
import { createTreasuryPayout } from '../../../signer/payouts/treasuryPayout';
import { recordRefundPayment, refundSigner } from '../../../signer/refunds/refundPayment';
import { transfer } from '../../../toolchain/localSolana/splToken';
import { usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';
import { claimedRefund, payRefundOnce, payRefundUntilDone, refundPayerOf } from '../../support/refundPayments';

const FEE = 10_000n;
const TOKEN_ACCOUNT_RENT = 2_039_280n;
const LAMPORTS_FEE = 5_000n;

let f: PayoutFixture;
usePayoutFixture(
  (fixture) => (f = fixture),
  () => (f.rpcServer.dropping = false),
);

const sessionOf = async (paymentId: string) =>
  (await f.db.sql<[{ session_id: string }]>`select session_id from payments where id = ${paymentId}`)[0].session_id;

/** A $1 session paid in full, then a late deposit of `late` to its address, recorded for a refund (not credited). */
async function lateDeposit(late = 5_000_000n, price = 1_000_000n) {
  const txHash = randomBytes(32).toString('hex');
  const paid = await f.payment(price, () => [{ amount: price }, { amount: late, txHash, logIndex: 2, credited: false }]);
  const sessionId = await sessionOf(paid.request.paymentId);
  return { ...paid, sessionId, deposit: { chain: 'solana' as const, txHash, logIndex: 2 } };
}

async function lateRefund(late = 5_000_000n, options: { destination?: string; claimed?: boolean } = {}) {
  const session = await lateDeposit(late);
  const refund = await claimedRefund(
    f.db.sql,
    {
      sessionId: session.sessionId,
      merchantId: session.request.merchantId,
      source: 'late_deposit',
      deposit: session.deposit,
      amountBaseUnits: late,
    },
    options,
  );
  return { session, ...refund };
}

const intentOf = async (request: RefundPaymentRequest) => (await findChainIntent(f.db.sql, `refund:${request.refundId}`)) as ChainIntent;

/** What the signer wrote for the refund: its payment row, its chain intent, its ledger entries. */
async function written(request: RefundPaymentRequest) {
  const reference = `refund:${request.refundId}`;
  const [row] = await f.db.sql<[{ payouts: number; intents: number; entries: number }]>`
    select (select count(*)::int from refund_payouts where refund_id = ${request.refundId}) as payouts,
           (select count(*)::int from chain_intents where id = ${reference}) as intents,
           (select count(*)::int from ledger_entries where reference = ${reference}) as entries`;
  return row;
}
const NOTHING = { payouts: 0, intents: 0, entries: 0 };

describe('paying a refund', () => {
  it('pays a claimed late deposit back: the amount less the fee into a new USDC account, one transaction, booked', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const deps = refundPayerOf(f, treasury);
    const { request, destination } = await lateRefund(5_000_000n);
    expect(await f.usdcBalance(destination)).toBeUndefined();

    const outcome = await payRefundUntilDone(f, deps, request);
    expect(outcome).toEqual({
      status: 'confirmed',
      signature: expect.any(String),
      confirmedAt: expect.any(String),
      amountBaseUnits: '4990000',
      feeBaseUnits: '10000',
    });
    expect(await f.usdcBalance(destination)).toBe(4_990_000n);
    expect(await f.usdcBalance(treasury.treasury.address)).toBe(95_010_000n);
    const intent = await intentOf(request);
    expect(intent).toMatchObject({ status: 'confirmed', supersededSignatures: [] });
    expect(f.landedSignatures(intent)).toBe(1);
    expect(await findRefundPayout(f.db.sql, request.refundId)).toMatchObject({
      status: 'confirmed',
      destinationAddress: destination,
      amountBaseUnits: 4_990_000n,
      fee: FEE,
      treasury: treasury.treasury.address,
    });
    expect(
      await f.db.sql`select group_id, account, asset, amount::text from ledger_entries where reference = ${intent.id} order by id`,
    ).toEqual([
      { group_id: `${intent.id}:reserve`, account: 'refund_due:solana', asset: 'usdc:solana', amount: '5000000' },
      { group_id: `${intent.id}:reserve`, account: 'refunds_in_flight', asset: 'usdc:solana', amount: '-5000000' },
      { group_id: `${intent.id}:sent`, account: 'refunds_in_flight', asset: 'usdc:solana', amount: '5000000' },
      { group_id: `${intent.id}:sent`, account: 'treasury:solana', asset: 'usdc:solana', amount: '-4990000' },
      { group_id: `${intent.id}:sent`, account: 'operator_held:solana', asset: 'usdc:solana', amount: '-10000' },
      { group_id: `${intent.id}:chain-costs`, account: 'gas_expense:solana', asset: 'sol:solana', amount: LAMPORTS_FEE.toString() },
      { group_id: `${intent.id}:chain-costs`, account: 'account_rent:solana', asset: 'sol:solana', amount: TOKEN_ACCOUNT_RENT.toString() },
      {
        group_id: `${intent.id}:chain-costs`,
        account: 'treasury:solana',
        asset: 'sol:solana',
        amount: (-(LAMPORTS_FEE + TOKEN_ACCOUNT_RENT)).toString(),
      },
    ]);

    // Asked again: the same outcome, nothing sent, nothing booked twice.
    f.rpcServer.resetCalls();
    expect(await payRefundOnce(deps, request)).toEqual(outcome);
    expect(f.rpcServer.calls.get('sendTransaction')).toBeUndefined();
    f.chain.produce();
    expect(await f.usdcBalance(destination)).toBe(4_990_000n);
    expect(await f.db.sql`select count(*)::int as n from ledger_entries where reference = ${intent.id}`).toEqual([{ n: 8 }]);
  });

  it("a merchant's refund under the merchant policy: the customer gets it all, the merchant owes it and the fee", async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const deps = refundPayerOf(f, treasury, { merchantReceivableLimit: 10_000_000n });
    const paid = await f.payment(2_000_000n);
    await f.payUntilConfirmed(treasury, paid.request);
    const sessionId = await sessionOf(paid.request.paymentId);
    const { request, destination } = await claimedRefund(f.db.sql, {
      sessionId,
      merchantId: paid.request.merchantId,
      source: 'merchant',
      amountBaseUnits: 1_500_000n,
      feePolicy: 'merchant',
    });
    expect(await payRefundUntilDone(f, deps, request)).toMatchObject({
      status: 'confirmed',
      amountBaseUnits: '1500000',
      feeBaseUnits: '10000',
    });
    expect(await f.usdcBalance(destination)).toBe(1_500_000n);
    expect(
      await f.db
        .sql`select coalesce(sum(amount), 0)::text as owed from ledger_entries where account = ${ACCOUNT.merchantReceivable(paid.request.merchantId)}`,
    ).toEqual([{ owed: '1510000' }]);
  });

  it('an existing customer USDC account is reused: only the fee is spent in SOL', async () => {
    const treasury = await f.treasury({ usdc: 100_000_000n });
    const deps = refundPayerOf(f, treasury);
    const { request, destination } = await lateRefund(2_000_000n);
    await transfer(f.chain, f.usdc, treasury.treasury, [{ to: destination, amount: 1n }]);
    f.chain.produce();
    expect(await payRefundUntilDone(f, deps, request)).toMatchObject({ status: 'confirmed' });
    expect(await f.usdcBalance(destination)).toBe(1_990_001n);
    expect(await f.solEntries(`refund:${request.refundId}`)).toEqual([
      { account: 'gas_expense:solana', amount: LAMPORTS_FEE.toString() },
      { account: 'treasury:solana', amount: (-LAMPORTS_FEE).toString() },
    ]);
  });

  it('a treasury short of USDC signs nothing and waits; topped up, it pays', async () => {
    const treasury = await f.treasury({ usdc: 1_000_000n });
    const deps = refundPayerOf(f, treasury);
    const { request, destination } = await lateRefund(3_000_000n);
    expect(await payRefundOnce(deps, request)).toEqual({ status: 'awaiting_liquidity', usdcShortfall: '1990000', lamportsShortfall: '0' });
    expect(await intentOf(request)).toMatchObject({ status: 'prepared', signature: null });
    await f.topUp(treasury.treasury, 2_000_000n);
    expect(await payRefundUntilDone(f, deps, request)).toMatchObject({ status: 'confirmed' });
    expect(await f.usdcBalance(destination)).toBe(2_990_000n);
  });

  it('USDC of a refund signed and not yet landed is spoken for: a payout waits rather than sign more than the treasury holds', async () => {
    const treasury = await f.treasury({ usdc: 5_000_000n });
    const deps = refundPayerOf(f, treasury);
    const { request } = await lateRefund(3_000_000n);
    expect(await payRefundOnce(deps, request)).toMatchObject({ status: 'submitted' });
    const payout = await f.payment(3_000_000n);
    // Until the refund is recorded as landed its amount counts twice (balance already lower, still reserved).
    expect(await createTreasuryPayout(treasury)(payout.request)).toMatchObject({ status: 'awaiting_liquidity', usdcShortfall: '3980000' });
    f.chain.produce();
    expect(await payRefundOnce(deps, request)).toMatchObject({ status: 'confirmed' });
    expect(await createTreasuryPayout(treasury)(payout.request)).toMatchObject({ status: 'awaiting_liquidity', usdcShortfall: '990000' });
  });
});

describe('a refund and a payout of the same money', () => {
  it("a deposit refunded and then credited to the session's payment does not back its payout", async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const deps = refundPayerOf(f, treasury);
    const txHash = randomBytes(32).toString('hex');
    const paid = await f.payment(1_000_000n, () => [{ amount: 1_000_000n, txHash, credited: false }]);
    const sessionId = await sessionOf(paid.request.paymentId);
    const { request } = await claimedRefund(f.db.sql, {
      sessionId,
      merchantId: paid.request.merchantId,
      source: 'late_deposit',
      deposit: { chain: 'solana', txHash, logIndex: 1 },
      amountBaseUnits: 1_000_000n,
    });
    expect(await payRefundUntilDone(f, deps, request)).toMatchObject({ status: 'confirmed' });
    await f.db.sql`update deposits set credited = true where session_id = ${sessionId}`;
    await expect(f.payUntilConfirmed(treasury, paid.request)).rejects.toMatchObject({
      type: WorkflowFailure.PayoutRefused,
      message: expect.stringMatching(/add up to 0 USDC base units once 1000000 refunded is taken off/),
    });
    expect(await f.usdcBalance(paid.wallet)).toBeUndefined();
  });
});

describe('a process killed mid-refund resumes from the row and pays once', () => {
  it('killed after signing: the stored bytes are what the next run sends', async () => {
    const deps = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const { request, destination } = await lateRefund(4_000_000n);
    const recorded = await recordRefundPayment(deps, request);
    if (recorded.kind !== 'written') throw new Error(recorded.reason);
    await createSolanaChainWriter(deps).sign(recorded.payout.intentId, refundSigner(deps, recorded.payout));
    const signed = await intentOf(request);
    expect(signed).toMatchObject({ status: 'signed', nonceAccount: expect.any(String) });
    expect(f.chain.findTransaction(signed.signature as string)).toBeUndefined();

    expect(await payRefundUntilDone(f, deps, request)).toMatchObject({ status: 'confirmed', signature: signed.signature });
    const done = await intentOf(request);
    expect(done).toMatchObject({ wireTransaction: signed.wireTransaction, supersededSignatures: [] });
    expect(f.landedSignatures(done)).toBe(1);
    expect(await f.usdcBalance(destination)).toBe(3_990_000n);
  });

  it('killed after broadcasting, recorded or not: the next run finds the transaction and sends nothing new', async () => {
    const deps = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    for (const recordedBroadcast of [true, false]) {
      const { request, destination } = await lateRefund(2_000_000n);
      const recorded = await recordRefundPayment(deps, request);
      if (recorded.kind !== 'written') throw new Error(recorded.reason);
      const writer = createSolanaChainWriter(deps);
      await writer.sign(recorded.payout.intentId, refundSigner(deps, recorded.payout));
      const signed = await intentOf(request);
      if (recordedBroadcast) await writer.broadcast(recorded.payout.intentId);
      else await deps.rpc.sendTransaction(signed.wireTransaction as Base64EncodedWireTransaction, { encoding: 'base64' }).send();

      f.rpcServer.resetCalls();
      expect(await payRefundOnce(deps, request)).toMatchObject({ status: 'submitted', signature: signed.signature });
      expect(f.rpcServer.calls.get('sendTransaction')).toBeUndefined();
      f.chain.produce();
      expect(await payRefundUntilDone(f, deps, request)).toMatchObject({ status: 'confirmed', signature: signed.signature });
      expect(await f.usdcBalance(destination)).toBe(1_990_000n);
      expect(f.landedSignatures(await intentOf(request))).toBe(1);
    }
  });

  it('a transfer that lands and fails: the refund fails, the reservation is released, the fee booked, nothing re-signed', async () => {
    const treasury = await f.treasury({ usdc: 3_000_000n });
    const deps = refundPayerOf(f, treasury);
    const { request, destination } = await lateRefund(3_000_000n);
    const recorded = await recordRefundPayment(deps, request);
    if (recorded.kind !== 'written') throw new Error(recorded.reason);
    await createSolanaChainWriter(deps).sign(recorded.payout.intentId, refundSigner(deps, recorded.payout));
    const signed = await intentOf(request);
    // The treasury is emptied after signing, and the stored bytes reach a leader without preflight: they run and fail.
    const elsewhere = await generateKeyPairSigner();
    await transfer(f.chain, f.usdc, treasury.treasury, [{ to: elsewhere.address, amount: 3_000_000n }]);
    await deps.rpc
      .sendTransaction(signed.wireTransaction as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true })
      .send();
    f.chain.produce();

    for (let pass = 0; pass < 2; pass++)
      expect(await payRefundOnce(deps, request)).toEqual({ status: 'failed', reason: expect.stringMatching(/failed on chain/) });
    expect(await findRefundPayout(f.db.sql, request.refundId)).toMatchObject({ status: 'failed', signature: signed.signature });
    expect(await intentOf(request)).toMatchObject({ status: 'failed', supersededSignatures: [] });
    expect(await f.usdcBalance(destination)).toBeUndefined();
    expect(
      await f.db
        .sql`select account, asset, sum(amount)::text as balance from ledger_entries where reference = ${`refund:${request.refundId}`}
        group by account, asset having sum(amount) <> 0 order by account`,
    ).toEqual([
      { account: 'gas_expense:solana', asset: 'sol:solana', balance: '5000' },
      { account: 'treasury:solana', asset: 'sol:solana', balance: '-5000' },
    ]);
  });
});

describe('a refund written by a treasury whose key the signer no longer holds', () => {
  it('signed by the old key, it is followed to its end without signing; written and never signed, it waits for that key', async () => {
    const old = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const rotated = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const signedOne = await lateRefund(2_000_000n);
    const recorded = await recordRefundPayment(old, signedOne.request);
    if (recorded.kind !== 'written') throw new Error(recorded.reason);
    await createSolanaChainWriter(old).sign(recorded.payout.intentId, refundSigner(old, recorded.payout));
    const signed = await intentOf(signedOne.request);

    expect(await payRefundUntilDone(f, rotated, signedOne.request)).toMatchObject({ status: 'confirmed', signature: signed.signature });
    expect(await f.usdcBalance(signedOne.destination)).toBe(1_990_000n);
    expect(await f.usdcBalance(old.treasury.address)).toBe(48_010_000n);
    expect(await f.usdcBalance(rotated.treasury.address)).toBe(50_000_000n);
    expect(f.landedSignatures(await intentOf(signedOne.request))).toBe(1);

    const unsigned = await lateRefund(2_000_000n);
    expect(await recordRefundPayment(old, unsigned.request)).toMatchObject({ kind: 'written' });
    await expect(payRefundOnce(rotated, unsigned.request)).rejects.toMatchObject({
      type: WorkflowFailure.PayoutKeyMissing,
      nonRetryable: false,
    });
    expect(await intentOf(unsigned.request)).toMatchObject({ status: 'prepared', signature: null });
  });
});

describe('a refund the facts do not back is refused, nothing written', () => {
  it('not claimed', async () => {
    const deps = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const { request } = await lateRefund(2_000_000n, { claimed: false });
    expect(await payRefundOnce(deps, request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/is pending claim, not claimed$/),
    });
    expect(await written(request)).toEqual(NOTHING);
  });

  it('of the other mode: a live refund asked of the test treasury', async () => {
    const deps = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const txHash = randomBytes(32).toString('hex');
    const live = await f.payment(1_000_000n, () => [{ amount: 1_000_000n }, { amount: 2_000_000n, txHash, logIndex: 2, credited: false }], {
      mode: 'live',
    });
    const { request } = await claimedRefund(f.db.sql, {
      sessionId: await sessionOf(live.request.paymentId),
      merchantId: live.request.merchantId,
      mode: 'live',
      source: 'late_deposit',
      deposit: { chain: 'solana', txHash, logIndex: 2 },
      amountBaseUnits: 2_000_000n,
    });
    const asTest = { ...request, mode: 'test' as const };
    expect(await payRefundOnce(deps, asTest)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/is a live refund; the test treasury/),
    });
    expect(await written(request)).toEqual(NOTHING);
  });

  it("to a deposit address of the service, its pool's, an address off the curve, or the treasury itself", async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const deps = refundPayerOf(f, treasury);
    const other = await lateDeposit(1_000_000n);
    const pooled = (await generateKeyPairSigner()).address;
    await f.db
      .sql`insert into solana_deposit_address_pool (mode, derivation_index, address) values ('test', 900000000 + ${Math.floor(Math.random() * 1e6)}, ${pooled})`;
    const cases: [string, RegExp][] = [
      [other.depositAddress, /one of the service's deposit addresses/],
      [pooled, /one of the service's deposit addresses/],
      [await associatedUsdcAccount(other.wallet, f.usdc.address), /off the ed25519 curve/],
      [treasury.treasury.address, /the treasury itself/],
      ['not-an-address', /is not a Solana address/],
    ];
    for (const [destination, reason] of cases) {
      const { request } = await lateRefund(2_000_000n, { destination });
      expect(await payRefundOnce(deps, request)).toEqual({ status: 'failed', reason: expect.stringMatching(reason) });
      expect(await written(request)).toEqual(NOTHING);
    }
  });

  it('more than the deposit, or a deposit whose money the session already paid out', async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const deps = refundPayerOf(f, treasury);
    const session = await lateDeposit(2_000_000n);
    const larger = await claimedRefund(f.db.sql, {
      sessionId: session.sessionId,
      merchantId: session.request.merchantId,
      source: 'late_deposit',
      deposit: session.deposit,
      amountBaseUnits: 2_000_001n,
    });
    expect(await payRefundOnce(deps, larger.request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/asked of a deposit of 2000000/),
    });
    expect(await written(larger.request)).toEqual(NOTHING);

    // A $1 session paid out to its merchant; its deposit then called uncredited and refunded: the money is gone already.
    const paid = await f.payment(1_000_000n, () => [{ amount: 1_000_000n, txHash: 'aa'.repeat(32), logIndex: 1 }]);
    await f.payUntilConfirmed(treasury, paid.request);
    const sessionId = await sessionOf(paid.request.paymentId);
    await f.db.sql`update deposits set credited = false where session_id = ${sessionId}`;
    const taken = await claimedRefund(f.db.sql, {
      sessionId,
      merchantId: paid.request.merchantId,
      source: 'late_deposit',
      deposit: { chain: 'solana', txHash: 'aa'.repeat(32), logIndex: 1 },
      amountBaseUnits: 1_000_000n,
    });
    expect(await payRefundOnce(deps, taken.request)).toEqual({ status: 'failed', reason: expect.stringMatching(/paid out 1000000/) });
    expect(await written(taken.request)).toEqual(NOTHING);
  });

  it("a merchant's refund above what its payouts paid less its other refunds, or above the merchant's receivable limit", async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const paid = await f.payment(2_000_000n);
    const sessionId = await sessionOf(paid.request.paymentId);
    const merchantRefund = (amount: bigint) =>
      claimedRefund(f.db.sql, { sessionId, merchantId: paid.request.merchantId, source: 'merchant', amountBaseUnits: amount });
    const generous = refundPayerOf(f, treasury, { merchantReceivableLimit: 100_000_000n });

    // Nothing paid out yet: nothing to refund.
    const early = await merchantRefund(1_000_000n);
    expect(await payRefundOnce(generous, early.request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/paid the merchant 0/),
    });
    expect(await written(early.request)).toEqual(NOTHING);

    await f.payUntilConfirmed(treasury, paid.request);
    // The default limit: what the service holds for the merchant's payouts to come, here nothing.
    const unheld = await merchantRefund(1_500_000n);
    expect(await payRefundOnce(refundPayerOf(f, treasury), unheld.request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/above its limit of 0$/),
    });
    const capped = await merchantRefund(1_500_000n);
    expect(await payRefundOnce(refundPayerOf(f, treasury, { merchantReceivableLimit: 1_000_000n }), capped.request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/would owe 1500000 USDC base units for refunds, above its limit of 1000000$/),
    });
    for (const request of [unheld.request, capped.request]) expect(await written(request)).toEqual(NOTHING);

    const first = await merchantRefund(1_500_000n);
    expect(await payRefundUntilDone(f, generous, first.request)).toMatchObject({ status: 'confirmed' });
    const second = await merchantRefund(600_000n);
    expect(await payRefundOnce(generous, second.request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/paid the merchant 2000000 of which 1500000 was refunded already/),
    });
    expect(await written(second.request)).toEqual(NOTHING);
  });

  it('by default a merchant may owe what the service holds for its payouts to come: its credited deposits still pending', async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const paid = await f.payment(2_000_000n);
    await f.payUntilConfirmed(treasury, paid.request);
    const pendingTx = randomBytes(32).toString('hex');
    // Another session of the merchant, credited by its workflow and not yet paid out: 1 USDC pending for the merchant.
    const next = await f.payment(1_000_000n, () => [{ amount: 1_000_000n, txHash: pendingTx }], { merchantOf: paid });
    await postLedger(
      f.db.sql,
      depositCredited({
        chain: 'solana',
        token: 'USDC',
        txHash: pendingTx,
        logIndex: 1,
        mode: 'test',
        amount: 1_000_000n,
        merchantUnits: 1_000_000n,
      }),
    );
    const sessionId = await sessionOf(paid.request.paymentId);
    const merchantRefund = (amount: bigint) =>
      claimedRefund(f.db.sql, { sessionId, merchantId: paid.request.merchantId, source: 'merchant', amountBaseUnits: amount });
    const deps = refundPayerOf(f, treasury);
    const above = await merchantRefund(1_000_001n);
    expect(await payRefundOnce(deps, above.request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/above its limit of 1000000$/),
    });
    const within = await merchantRefund(1_000_000n);
    expect(await payRefundUntilDone(f, deps, within.request)).toMatchObject({ status: 'confirmed', amountBaseUnits: '990000' });
    expect(next.request.merchantId).toBe(paid.request.merchantId);
  });

  it('cancelled while its payment is written: the payment waits for the cancel and withdraws, nothing written', async () => {
    const deps = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const { request } = await lateRefund(2_000_000n);
    let recording: ReturnType<typeof recordRefundPayment> | undefined;
    await f.db.sql.begin(async (tx) => {
      expect(await moveRefund(tx, request.refundId, 'cancel', { statusReason: 'cancelled by merchant' })).toMatchObject({ ok: true });
      recording = recordRefundPayment(deps, request);
      // The payment's insert waits on the refund's row, which this cancel holds until it commits.
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    expect(await recording).toEqual({ kind: 'refused', reason: expect.stringMatching(/became cancelled while its payment was written/) });
    expect(await written(request)).toEqual(NOTHING);
  });

  it('a refund the fee would swallow', async () => {
    const deps = refundPayerOf(f, await f.treasury({ usdc: 50_000_000n }));
    const { request } = await lateRefund(FEE);
    expect(await payRefundOnce(deps, request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/not larger than the network fee/),
    });
    expect(await written(request)).toEqual(NOTHING);
  });
});

describe('above the threshold, or live, the refund re-reads its deposit from the chain', () => {
  /** A $1 session paid in full, then a late deposit that sent `sent` on the local chain, 32 slots deep, recorded as `recorded`. */
  async function onChainLateRefund(sent: bigint, recorded: bigint) {
    const price = 1_000_000n;
    let late = { txHash: '', logIndex: 0 };
    const paid = await f.payment(price, async (depositAddress) => {
      late = await f.onChainDeposit(depositAddress, sent);
      return [{ amount: price }, { amount: recorded, ...late, credited: false }];
    });
    f.chain.produce(31);
    const sessionId = await sessionOf(paid.request.paymentId);
    return claimedRefund(f.db.sql, {
      sessionId,
      merchantId: paid.request.merchantId,
      source: 'late_deposit',
      deposit: { chain: 'solana', ...late },
      amountBaseUnits: recorded,
    });
  }

  it('pays a deposit the chain shows as the indexer recorded it, having asked the chain', async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const deps = refundPayerOf(f, treasury, { rereadAboveUsdcBaseUnits: 1_000_000n });
    const { request, destination } = await onChainLateRefund(3_000_000n, 3_000_000n);
    f.rpcServer.resetCalls();
    expect(await payRefundUntilDone(f, deps, request)).toMatchObject({ status: 'confirmed', amountBaseUnits: '2990000' });
    expect(f.rpcServer.calls.get('getTransaction')).toBeGreaterThan(0);
    expect(await f.usdcBalance(destination)).toBe(2_990_000n);
  });

  it('refuses an indexer row whose amount the chain does not show, writing nothing', async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const deps = refundPayerOf(f, treasury, { rereadAboveUsdcBaseUnits: 1_000_000n });
    const { request, destination } = await onChainLateRefund(2_000_000n, 3_000_000n);
    expect(await payRefundOnce(deps, request)).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/: the node shows 2000000 base units credited, the indexer recorded 3000000$/),
    });
    expect(await written(request)).toEqual(NOTHING);
    expect(await f.usdcBalance(destination)).toBeUndefined();
  });

  it('below the threshold a test refund is judged on the indexer alone', async () => {
    const treasury = await f.treasury({ usdc: 50_000_000n });
    const deps = refundPayerOf(f, treasury);
    const { request } = await onChainLateRefund(2_000_000n, 3_000_000n);
    f.rpcServer.resetCalls();
    // The first pass writes and sends the payment; only a landed transaction is read back, for its costs.
    expect(await payRefundOnce(deps, request)).toMatchObject({ status: 'submitted' });
    expect(f.rpcServer.calls.get('getTransaction') ?? 0).toBe(0);
    expect(await written(request)).toMatchObject({ payouts: 1 });
  });
});
