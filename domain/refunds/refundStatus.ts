// A refund's life (docs/refunds.md#statuses): waiting for the customer to say where (pending_claim), told where
// (claimed), its transaction broadcast (submitted), landed (completed); or it ends without money moving: the signer
// could not pay it (failed), nobody claimed it in time (expired), the merchant withdrew it (cancelled). Pure.
export const REFUND_STATUSES = ['pending_claim', 'claimed', 'submitted', 'completed', 'failed', 'expired', 'cancelled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export type RefundEvent = 'claim' | 'submit' | 'complete' | 'fail' | 'expire' | 'cancel';

/** Statuses a refund never leaves. */
export const FINAL_REFUND_STATUSES: ReadonlySet<RefundStatus> = new Set<RefundStatus>(['completed', 'failed', 'expired', 'cancelled']);

const TRANSITIONS: Record<RefundStatus, Partial<Record<RefundEvent, RefundStatus>>> = {
  // A merchant may give the destination through the API in place of the customer; either way it is a claim.
  pending_claim: { claim: 'claimed', expire: 'expired', cancel: 'cancelled' },
  // Once claimed the money is promised to an address: it may still be withdrawn until the signer writes its payment,
  // and it is not expired by time, since the customer did their part.
  claimed: { submit: 'submitted', complete: 'completed', fail: 'failed', cancel: 'cancelled' },
  submitted: { complete: 'completed', fail: 'failed' },
  completed: {},
  failed: {},
  expired: {},
  cancelled: {},
};

export type RefundTransition = { ok: true; status: RefundStatus } | { ok: false; message: string };

/** Where `event` takes a refund in `status`, or why it cannot happen. */
export function refundTransition(status: RefundStatus, event: RefundEvent): RefundTransition {
  const next = TRANSITIONS[status][event];
  if (next) return { ok: true, status: next };
  return { ok: false, message: `A refund that is ${status.replace('_', ' ')} cannot be ${REFUND_EVENT_STATUS[event]}` };
}

/** The status each event leads to, whatever the refund was in: a refund already there has nothing left to do. */
export const REFUND_EVENT_STATUS: Record<RefundEvent, RefundStatus> = {
  claim: 'claimed',
  submit: 'submitted',
  complete: 'completed',
  fail: 'failed',
  expire: 'expired',
  cancel: 'cancelled',
};
