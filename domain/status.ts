/** The nine statuses of spec part 3, shared by sessions and transactions. */
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
