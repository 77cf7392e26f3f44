// The posting of what a payout netted from its merchant's receivable (docs/refunds.md#ledger): the merchant is owed
// less because it owes less (merchant_receivable credit), in Solana USDC (payoutDeduction.ts). Pure.
import { ACCOUNT, type LedgerPosting, type PayoutAmount } from './ledger';
import { payoutDeductionGroup, payoutDeductionPosting } from './payoutDeduction';

export const payoutNettedGroup = (paymentId: string) => payoutDeductionGroup(paymentId, 'netted');

/** The netting of a payout; undefined when it netted nothing. */
export function payoutNetted(
  payout: Pick<PayoutAmount, 'paymentId' | 'mode' | 'merchantId' | 'amount' | 'netted'>,
): LedgerPosting | undefined {
  const netted = payout.netted ?? 0n;
  if (netted < 0n || netted > payout.amount) throw new RangeError(`a payout nets between 0 and its amount ${payout.amount}, got ${netted}`);
  return payoutDeductionPosting(payout, 'netted', netted, ACCOUNT.merchantReceivable(payout.merchantId));
}
