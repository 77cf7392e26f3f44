// When an unclaimed refund's workflow next acts (docs/refunds.md#expiry): it reminds the merchant `refund.expiring`
// three days before the claim window closes, when the window was longer than that, and expires the refund at its
// end. Pure: the workflow waits on the answer with a durable timer.
export const REFUND_REMINDER_BEFORE_MS = 3 * 24 * 60 * 60 * 1000;

export type RefundWake = { kind: 'remind'; atMs: number } | { kind: 'expire'; atMs: number };

export function nextRefundWake(refund: { createdAtMs: number; expiresAtMs: number }, reminded: boolean): RefundWake {
  const remindAtMs = refund.expiresAtMs - REFUND_REMINDER_BEFORE_MS;
  // A window of three days or less has no reminder: the refund.created webhook said all there was to say.
  if (!reminded && remindAtMs > refund.createdAtMs) return { kind: 'remind', atMs: remindAtMs };
  return { kind: 'expire', atMs: refund.expiresAtMs };
}
