// A live payout that would take its merchant's live payouts of the trailing 24 hours past SETTLEMENT_DAILY_LIMIT_USDC
// is not written until an operator approves its payment: the signer answers a retryable PayoutAwaitingApproval (the
// payout activity's retry policy waits on it), writes no row and moves no USDC; once approved, the same request pays.
import type { Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createTreasuryPayout, type PayoutRequest, type TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { approvePayout } from '../../../db/repositories/payoutApprovals';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import { recordingActivity } from '../../support/recordingActivity';
import { usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';

let f: PayoutFixture;
const { environment: activity, counted, clear } = recordingActivity();
usePayoutFixture((fixture) => (f = fixture), clear);

const payOnce = (deps: TreasuryPayoutDeps, request: PayoutRequest) => activity.run(createTreasuryPayout(deps), request);

/** A deposit that really arrived on chain, deep enough: every live payout re-reads its deposits. */
const landed = (amount: bigint) => async (depositAddress: Address) => {
  const onChain = await f.onChainDeposit(depositAddress, amount);
  f.chain.produce(31);
  return [{ amount, ...onChain }];
};

const awaitingApproval = (message: RegExp) => ({
  type: WorkflowFailure.PayoutAwaitingApproval,
  nonRetryable: false,
  message: expect.stringMatching(message),
});

const payoutRows = async (paymentId: string) =>
  (await f.db.sql<[{ n: number }]>`select count(*)::int as n from payouts where payment_id = ${paymentId}`)[0].n;

describe("a merchant's daily limit of live payouts", () => {
  const limit = { dailyLimitUsdcBaseUnits: 5_000_000n };

  it('holds the payout that would go past it, writing nothing, until an operator approves; then pays it', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, limit);
    const first = await f.payment(3_000_000n, landed(3_000_000n), { mode: 'live' });
    await f.payUntilConfirmed(deps, first.request);
    const second = await f.payment(3_000_000n, landed(3_000_000n), { mode: 'live', merchantOf: first });
    await expect(payOnce(deps, second.request)).rejects.toMatchObject(
      awaitingApproval(
        new RegExp(
          `live payouts of the last 24 hours come to 3000000 USDC base units, and this payout of 3000000 would bring them to 6000000, above the daily limit of 5000000; it waits for an operator \\(checkout-admin settlement approve --payment ${second.request.paymentId}\\)$`,
        ),
      ),
    );
    expect(await payoutRows(second.request.paymentId)).toBe(0);
    expect(counted).toEqual([{ name: 'checkout_payouts_awaiting_approval', value: 1, tags: expect.objectContaining({ mode: 'live' }) }]);
    expect(await f.usdcBalance(first.wallet)).toBe(3_000_000n);

    await approvePayout(f.db.sql, second.request.paymentId, 'alice');
    await f.payUntilConfirmed(deps, second.request);
    expect(await f.usdcBalance(first.wallet)).toBe(6_000_000n);
  });

  it("counts only the trailing 24 hours' payouts, and none that landed and failed", async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, limit);
    const first = await f.payment(4_000_000n, landed(4_000_000n), { mode: 'live' });
    await f.payUntilConfirmed(deps, first.request);
    const second = await f.payment(4_000_000n, landed(4_000_000n), { mode: 'live', merchantOf: first });
    await expect(payOnce(deps, second.request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutAwaitingApproval });
    await f.db.sql`update payouts set created_at = now() - interval '24 hours 1 minute' where payment_id = ${first.request.paymentId}`;
    await f.payUntilConfirmed(deps, second.request);

    const third = await f.payment(4_000_000n, landed(4_000_000n), { mode: 'live', merchantOf: first });
    await expect(payOnce(deps, third.request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutAwaitingApproval });
    // A payout that landed and failed paid nothing: it takes nothing of the limit (the owner's edit stands in for one).
    await f.db.sql`update payouts set status = 'failed' where payment_id = ${second.request.paymentId}`;
    await f.payUntilConfirmed(deps, third.request);
    expect(await f.usdcBalance(first.wallet)).toBe(12_000_000n);
  });

  it('never holds a test payout, nor a live one without a limit', async () => {
    const limited = await f.treasury({ usdc: 50_000_000n }, limit);
    const test = await f.payment(6_000_000n);
    await f.payUntilConfirmed(limited, test.request);
    const unlimited = await f.treasury({ usdc: 50_000_000n });
    const live = await f.payment(6_000_000n, landed(6_000_000n), { mode: 'live' });
    await f.payUntilConfirmed(unlimited, live.request);
    expect(await f.usdcBalance(live.wallet)).toBe(6_000_000n);
    expect(counted).toEqual([]);
  });
});
