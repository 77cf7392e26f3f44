// The per-merchant daily limit of live payouts (docs/settlement.md#daily-limit), checked by the signer in the
// transaction that writes the payout row, after the deposits were found to back it: a payout that would bring the
// merchant's live payouts of the trailing 24 hours above SETTLEMENT_DAILY_LIMIT_USDC is not written until an operator
// approves its payment. It waits as a retryable PayoutAwaitingApproval, which the payout activity's retry policy
// retries without limit, so the settlement waits (stage `reserving`) rather than fails.
import { ApplicationFailure, log, metricMeter } from '@temporalio/activity';
import { lockUntilCommit } from '../../db/repositories/locks';
import { findPayoutApproval, livePayoutsInWindow } from '../../db/repositories/payoutApprovals';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { judgeDailyLimit } from '../../domain/settlement/dailyLimit';
import type { VerifyDailyLimit } from '../payouts/treasuryPayout';

/** `limitUsdcBaseUnits`: SETTLEMENT_DAILY_LIMIT_USDC in USDC base units; undefined: no limit. */
export function createDailyLimitCheck(deps: { limitUsdcBaseUnits: bigint | undefined }): VerifyDailyLimit {
  return async (tx, request, amount) => {
    if (request.mode !== 'live' || deps.limitUsdcBaseUnits === undefined) return;
    // Two payouts of one merchant written at once must each count the other: the window is read and the row written
    // under the merchant's lock. The request's merchant is the payment's own (judgePayoutBinding checked it).
    await lockUntilCommit(tx, `payout-limit:${request.merchantId}`);
    const paidInWindow = await livePayoutsInWindow(tx, request.merchantId, request.paymentId);
    const approval = await findPayoutApproval(tx, request.paymentId);
    const verdict = judgeDailyLimit(
      { ...request, amount },
      { paidInWindow, limit: deps.limitUsdcBaseUnits, ...(approval ? { approval } : {}) },
    );
    if (verdict.kind === 'within') return;
    const meta = {
      paymentId: request.paymentId,
      merchantId: request.merchantId,
      amount: amount.toString(),
      paidInWindow: paidInWindow.toString(),
    };
    if (verdict.kind === 'approved') {
      log.info("payout above the merchant's daily limit written on an operator's approval", { ...meta, operator: verdict.operator });
      return;
    }
    metricMeter
      .createCounter(
        'checkout_payouts_awaiting_approval',
        'attempts',
        'Live payout attempts held because they would take the merchant past its daily limit, until an operator approves',
      )
      .add(1, { mode: request.mode });
    log.warn("payout awaits an operator's approval: above the merchant's daily limit", { ...meta, reason: verdict.reason });
    throw ApplicationFailure.retryable(verdict.reason, WorkflowFailure.PayoutAwaitingApproval);
  };
}
