// Why a session moved to a status, in words for the dashboard's timeline (docs/lifecycle.md#session-lifecycle).
import type { SessionStatus } from '../wire/status';

export const STATUS_REASONS: Record<SessionStatus, string> = {
  pending: 'Session created; no payment method chosen yet',
  awaiting_payment: 'Payment method chosen; deposit address issued',
  confirming: 'Deposit seen on chain; waiting for confirmations',
  completed: 'Amount received within tolerance, confirmed and settled',
  underpaid: 'Less than the amount due arrived',
  overpaid: 'More than the amount due arrived',
  expired: 'Not paid before the session expired',
  failed: 'Settlement refused or the payment could not be accepted',
  cancelled: 'Cancelled by the merchant or an operator',
};

/**
 * Why a paid session is still `confirming`: its treasury payout waits for the treasury to be topped up
 * (workflows/settlePayment.ts). Shown until the payout proceeds; never a failure.
 */
export const AWAITING_SETTLEMENT_LIQUIDITY = 'awaiting settlement liquidity';
