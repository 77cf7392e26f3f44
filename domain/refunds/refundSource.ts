// Where the money a refund returns came from (docs/refunds.md#sources). A merchant's refund returns money the merchant
// was paid, and the merchant funds it; every other source is money the service holds for the customer
// (`refund_due:<chain>` in the ledger) that no session could keep.
export const REFUND_SOURCES = [
  'merchant',
  'overpayment',
  'late_deposit',
  'wrong_token',
  'wrong_chain',
  'dust',
  'underpaid_expired',
  'settlement_failed',
] as const;
export type RefundSource = (typeof REFUND_SOURCES)[number];

/** Sources the service creates by itself, each for one deposit. */
export type AutomaticRefundSource = Exclude<RefundSource, 'merchant'>;

/**
 * Sources that return a credited deposit's units its merchant was to be paid and never will be: a deposit may have one
 * of them beside its overpayment refund (refunds_one_per_deposit).
 */
export const UNPAID_MERCHANT_SOURCES: ReadonlySet<RefundSource> = new Set<RefundSource>(['underpaid_expired', 'settlement_failed']);
