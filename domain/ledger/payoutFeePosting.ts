// The posting of the operator's fee of a payout (docs/settlement.md#fees): the merchant is owed less and the operator
// earned it (operator_revenue credit), in Solana USDC that stays in the treasury (payoutDeduction.ts). Pure.
import { ACCOUNT, payoutTransfer, type LedgerPosting, type PayoutAmount } from './ledger';
import { payoutDeductionGroup, payoutDeductionPosting } from './payoutDeduction';

export const payoutFeeGroup = (paymentId: string) => payoutDeductionGroup(paymentId, 'fee');

/** The fee of a payout; undefined when it charged none. */
export function payoutFeeCharged(
  payout: Pick<PayoutAmount, 'paymentId' | 'mode' | 'merchantId' | 'amount' | 'netted' | 'fee'>,
): LedgerPosting | undefined {
  payoutTransfer(payout);
  return payoutDeductionPosting(payout, 'fee', payout.fee ?? 0n, ACCOUNT.operatorRevenue);
}
