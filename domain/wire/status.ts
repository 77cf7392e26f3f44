/** The nine statuses of docs/lifecycle.md#statuses, shared by sessions and transactions. */
export const SESSION_STATUSES = [
  'pending',
  'awaiting_payment',
  'confirming',
  'completed',
  'underpaid',
  'overpaid',
  'expired',
  'failed',
  'cancelled',
] as const;

export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * Statuses after which a session takes no change: its workflow has ended or is about to. A change asked for
 * then is refused from the read model, so the answer does not depend on whether the workflow has finished yet.
 */
export const CLOSED_STATUSES: ReadonlySet<SessionStatus> = new Set<SessionStatus>([
  'completed',
  'overpaid',
  'expired',
  'failed',
  'cancelled',
]);
