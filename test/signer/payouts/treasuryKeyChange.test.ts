// A payout already under way is finished by whatever signer runs next, whether the treasury key was rotated or the
// signer restarted without one: the stored bytes are sent again and followed to their end, never signed again from
// another treasury, and the merchant is paid once. A payout's transaction, signed against a durable nonce, never
// expires; only a payout never signed has nothing alive to follow, and it waits for its own key.
import { describe, expect, it } from 'vitest';
import { createSolanaChainWriter } from '../../../signer/chainWrites/solanaChainWriter';
import { payoutSigner, recordPayout, type TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { createPayTreasuryPayout } from '../../../signer/payouts/treasuryPayouts';
import { findPayout } from '../../../db/repositories/payouts';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import { FINALITY_DEPTH, MAX_PROCESSING_AGE } from '../../../toolchain/localSolana/localSolanaChain';
import { usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';

let f: PayoutFixture;

usePayoutFixture((fixture) => (f = fixture));

/** A payout of `amount` whose transaction the old treasury signed and (unless `send` is false) sent, not yet in a block. */
async function signedAndSent(old: TreasuryPayoutDeps, amount: bigint, send = true) {
  const { request, wallet } = await f.payment(amount);
  const payout = await recordPayout(old, request);
  const writer = createSolanaChainWriter(old);
  await writer.sign(payout.intentId as string, payoutSigner(old, payout));
  if (send) await writer.broadcast(payout.intentId as string);
  return { request, wallet, signed: await f.intentOf(request.paymentId) };
}

describe('a payout under way when the treasury key changes', () => {
  it('a rotated key: the new signer follows the old transaction to confirmation and signs nothing', async () => {
    const old = await f.treasury({ usdc: 20_000_000n });
    const rotated = await f.treasury({ usdc: 20_000_000n });
    const { request, wallet, signed } = await signedAndSent(old, 6_000_000n);

    const pay = createPayTreasuryPayout({ test: rotated });
    expect(await pay(request)).toMatchObject({ status: 'submitted', signature: signed.signature });
    f.chain.produce();
    expect(await pay(request)).toMatchObject({ status: 'confirmed', signature: signed.signature });

    expect(await f.intentOf(request.paymentId)).toMatchObject({ signature: signed.signature, supersededSignatures: [] });
    expect(await findPayout(f.db.sql, request.paymentId)).toMatchObject({ status: 'confirmed', treasury: old.treasury.address });
    expect(await f.usdcBalance(wallet)).toBe(6_000_000n);
    expect(await f.usdcBalance(old.treasury.address)).toBe(14_000_000n);
    expect(await f.usdcBalance(rotated.treasury.address)).toBe(20_000_000n);
  });

  it('no key at all: the signer follows the broadcast payout instead of answering no_treasury', async () => {
    const old = await f.treasury({ usdc: 20_000_000n });
    // Killed after signing, before sending: the keyless signer sends the stored bytes itself.
    const { request, wallet, signed } = await signedAndSent(old, 4_000_000n, false);
    expect(f.chain.findTransaction(signed.signature as string)).toBeUndefined();

    const pay = createPayTreasuryPayout({}, { test: { sql: f.signer, rpc: f.rpc } });
    let outcome = await pay(request);
    for (let pass = 0; outcome.status === 'submitted' && pass < 5; pass++) {
      f.chain.produce();
      outcome = await pay(request);
    }
    expect(outcome).toMatchObject({ status: 'confirmed', signature: signed.signature });
    expect(await f.usdcBalance(wallet)).toBe(4_000_000n);
    expect(f.landedSignatures(await f.intentOf(request.paymentId))).toBe(1);

    // A payment without a payout still hears no_treasury, as before.
    const fresh = await f.payment(1_000_000n);
    expect(await pay(fresh.request)).toEqual({ status: 'no_treasury' });
  });

  it('signed before the key changed, it outlives any blockhash: sent again without the key, it pays once from its treasury', async () => {
    const old = await f.treasury({ usdc: 20_000_000n });
    const rotated = await f.treasury({ usdc: 20_000_000n });
    const { request, wallet } = await f.payment(3_000_000n);
    const payout = await recordPayout(old, request);
    await createSolanaChainWriter(old).sign(payout.intentId as string, payoutSigner(old, payout));
    const stale = await f.intentOf(request.paymentId);
    f.chain.produce(MAX_PROCESSING_AGE + FINALITY_DEPTH + 1);

    // Signed against the old treasury's durable nonce: nothing ever judges it dead, so neither signer signs anew.
    for (const pay of [createPayTreasuryPayout({ test: rotated }), createPayTreasuryPayout({}, { test: { sql: f.signer, rpc: f.rpc } })])
      expect(await pay(request)).toMatchObject({ status: 'submitted', signature: stale.signature });
    f.chain.produce();
    expect(await createPayTreasuryPayout({ test: rotated })(request)).toMatchObject({ status: 'confirmed', signature: stale.signature });
    expect(await f.intentOf(request.paymentId)).toMatchObject({ supersededSignatures: [] });
    expect(await f.usdcBalance(rotated.treasury.address)).toBe(20_000_000n);
    expect(await f.usdcBalance(wallet)).toBe(3_000_000n);
    expect(f.landedSignatures(await f.intentOf(request.paymentId))).toBe(1);
  });

  it('written and never signed: nothing is alive to follow, so the payout waits for its own key, never another treasury', async () => {
    const old = await f.treasury({ usdc: 20_000_000n });
    const rotated = await f.treasury({ usdc: 20_000_000n });
    const { request, wallet } = await f.payment(3_000_000n);
    await recordPayout(old, request);
    for (const pay of [createPayTreasuryPayout({ test: rotated }), createPayTreasuryPayout({}, { test: { sql: f.signer, rpc: f.rpc } })]) {
      await expect(pay(request)).rejects.toMatchObject({
        type: WorkflowFailure.PayoutKeyMissing,
        nonRetryable: false,
        message: expect.stringContaining(`signed only by its treasury ${old.treasury.address}`),
      });
    }
    expect(await f.intentOf(request.paymentId)).toMatchObject({ status: 'prepared', signature: null });
    expect(await f.payUntilConfirmed(old, request)).toMatchObject({ status: 'confirmed' });
    expect(await f.usdcBalance(wallet)).toBe(3_000_000n);
    expect(await f.usdcBalance(rotated.treasury.address)).toBe(20_000_000n);
  });

  it('a request that differs from the payout under way is still refused', async () => {
    const old = await f.treasury({ usdc: 20_000_000n });
    const rotated = await f.treasury({ usdc: 20_000_000n });
    const { request } = await signedAndSent(old, 2_000_000n);
    await expect(createPayTreasuryPayout({ test: rotated })({ ...request, amountUsdcBaseUnits: '2000001' })).rejects.toMatchObject({
      type: WorkflowFailure.PayoutRefused,
    });
    f.chain.produce();
    await f.payUntilConfirmed(old, request);
  });
});
