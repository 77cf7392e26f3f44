// Whether the session of a payment may settle again (docs/settlement.md#what-follows-a-failed-settlement): a settlement
// that began and paid nothing (refused by the signer, or a live signer without its key), or one whose failed payout an
// operator has just replaced by a new generation (`settlement repay`), of a session that failed on it and whose
// workflow ended with the state a new run resumes from. Any other payout is followed to its end (`settlement retry`),
// and one that landed and failed is paid again only under a new generation.
import type { SessionStatus } from '../wire/status';

export interface ResettleFacts {
  settlement?: { status: 'pending' | 'settled'; provider: string; reference: string | null };
  /** The payment's payout row's status, when it has one. */
  payoutStatus?: string;
  /** Its generation: above 1 once an operator paid a failed payout again. */
  payoutGeneration?: number;
  /** The session's status in the read model. */
  sessionStatus?: SessionStatus;
  /** Temporal's status name of the session's workflow (`RUNNING`, `COMPLETED`, …); undefined when Temporal has none. */
  sessionWorkflow?: string;
  /** The same of settle_<pay_id>. */
  settlementWorkflow?: string;
  /** An operator gave its credited deposits back to the customer instead (`settlement refund`). */
  refunded?: boolean;
}

export type ResettleVerdict =
  | { kind: 'start' }
  | { kind: 'already_settled'; provider: string; reference: string | null }
  | { kind: 'in_progress'; why: string }
  | { kind: 'refused'; reason: string };

export function judgeResettle(paymentId: string, facts: ResettleFacts): ResettleVerdict {
  const { settlement, payoutStatus, sessionStatus } = facts;
  if (!settlement)
    return {
      kind: 'refused',
      reason: `payment ${paymentId} has no settlement: its session failed before a settlement began (no route for its pair), so there is nothing to settle again`,
    };
  if (settlement.status === 'settled') return { kind: 'already_settled', provider: settlement.provider, reference: settlement.reference };
  if (facts.refunded)
    return {
      kind: 'refused',
      reason: `payment ${paymentId} was given back to the customer (settlement refund): there is nothing left to settle`,
    };
  if (payoutStatus === 'failed')
    return {
      kind: 'refused',
      reason: `payment ${paymentId} has a payout that landed and failed: it is paid again only under a new payout generation (settlement repay)`,
    };
  const repaid = (facts.payoutGeneration ?? 1) > 1;
  if (payoutStatus !== undefined && !repaid)
    return {
      kind: 'refused',
      reason: `payment ${paymentId} has a payout (${payoutStatus}): it is followed to its end, never settled again (settlement retry restarts a stopped one)`,
    };
  if (facts.sessionWorkflow === 'RUNNING' || facts.settlementWorkflow === 'RUNNING')
    return {
      kind: 'in_progress',
      why: `the settlement of ${paymentId} is under way (its session's workflow or settle_${paymentId} is running)`,
    };
  if (sessionStatus !== 'failed')
    return {
      kind: 'refused',
      reason: `the session of ${paymentId} is ${sessionStatus ?? 'unknown'}, not failed: there is no refused settlement to settle again`,
    };
  if (facts.sessionWorkflow !== 'COMPLETED')
    return {
      kind: 'refused',
      reason: `the session workflow of ${paymentId} ${facts.sessionWorkflow ? `ended ${facts.sessionWorkflow.toLowerCase()}` : 'is no longer in Temporal'}: it holds no final state to settle again from`,
    };
  return { kind: 'start' };
}
