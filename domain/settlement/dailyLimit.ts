// The per-merchant daily limit of live payouts (docs/settlement.md#daily-limit): a payout that would bring what the
// treasury paid a merchant in the trailing 24 hours above the limit waits for an operator's approval instead of being
// written. It bounds what one compromised merchant account, a forged session or an indexer out of step with its node
// can take from the treasury before a person looks; test payouts move no real money and are never held.
import type { Mode } from '../wire/session';

/** Whole USDC (SETTLEMENT_DAILY_LIMIT_USDC's default). */
export const DEFAULT_DAILY_LIMIT_USDC = 10_000;

/** The trailing window live payouts are summed over. */
export const DAILY_LIMIT_WINDOW_HOURS = 24;

export interface LimitedPayout {
  paymentId: string;
  merchantId: string;
  mode: Mode;
  /** USDC base units. */
  amount: bigint;
}

export interface MerchantStanding {
  /**
   * USDC base units of the merchant's other live payouts written in the window, those that landed and failed left
   * out: they paid nothing.
   */
  paidInWindow: bigint;
  /** USDC base units; undefined: no limit. */
  limit: bigint | undefined;
  /** The operator's approval of this payment's payout, when one was given. */
  approval?: { operator: string };
}

export type DailyLimitVerdict = { kind: 'within' } | { kind: 'approved'; operator: string } | { kind: 'awaiting_approval'; reason: string };

/** A payout within the limit is paid; above it, only once an operator approved that payment. */
export function judgeDailyLimit(payout: LimitedPayout, standing: MerchantStanding): DailyLimitVerdict {
  if (payout.mode !== 'live' || standing.limit === undefined) return { kind: 'within' };
  const total = standing.paidInWindow + payout.amount;
  if (total <= standing.limit) return { kind: 'within' };
  if (standing.approval) return { kind: 'approved', operator: standing.approval.operator };
  return {
    kind: 'awaiting_approval',
    reason: `payment ${payout.paymentId}: merchant ${payout.merchantId}'s live payouts of the last ${DAILY_LIMIT_WINDOW_HOURS} hours come to ${standing.paidInWindow} USDC base units, and this payout of ${payout.amount} would bring them to ${total}, above the daily limit of ${standing.limit}; it waits for an operator (checkout-admin settlement approve --payment ${payout.paymentId})`,
  };
}
