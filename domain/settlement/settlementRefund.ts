// Whether an operator may give back to the customer what a failed settlement left pending for the merchant
// (docs/settlement.md#what-follows-a-failed-settlement, `settlement refund`): only for a session that failed without a
// payout, whose settlement is not running; instead of settling it again. Once given back, it is never settled again
// (judgeResettle). Pure.
import type { SessionStatus } from '../wire/status';

export interface SettlementRefundFacts {
  /** The session's status in the read model. */
  sessionStatus?: SessionStatus;
  /** The payment's payout row's status, when it has one. */
  payoutStatus?: string;
  settlement?: { status: 'pending' | 'settled' };
  /** Temporal's status name of the session's workflow and of settle_<pay_id>; undefined when Temporal has none. */
  sessionWorkflow?: string;
  settlementWorkflow?: string;
}

export type SettlementRefundVerdict = { kind: 'refund' } | { kind: 'refused'; reason: string };

export function judgeSettlementRefund(paymentId: string, facts: SettlementRefundFacts): SettlementRefundVerdict {
  const refused = (reason: string): SettlementRefundVerdict => ({ kind: 'refused', reason });
  if (!facts.sessionStatus) return refused(`payment ${paymentId} does not exist`);
  if (facts.settlement?.status === 'settled') return refused(`payment ${paymentId} is settled: the merchant was paid, nothing is pending`);
  if (facts.payoutStatus !== undefined)
    return refused(
      `payment ${paymentId} has a payout (${facts.payoutStatus}): its units are the merchant's, not pending; a failed one is paid again with settlement repay`,
    );
  if (facts.sessionWorkflow === 'RUNNING' || facts.settlementWorkflow === 'RUNNING')
    return refused(`the settlement of ${paymentId} is under way (its session's workflow or settle_${paymentId} is running)`);
  if (facts.sessionStatus !== 'failed')
    return refused(`the session of ${paymentId} is ${facts.sessionStatus}, not failed: only a failed settlement's deposits are given back`);
  return { kind: 'refund' };
}
