// The posting of the operator's fee of a payout (docs/settlement.md#fees): the merchant is owed less (merchant_payable
// debit) and the operator earned it (operator_revenue credit), in Solana USDC that stays in the treasury. Keyed on the
// payment, not the payout generation: a payout paid again after its transaction failed keeps the fee it was written
// with, and never charges a second one. Pure.
import { payoutIntentId } from '../chainWrites/solanaChainIntent';
import { ACCOUNT, ASSET, payoutTransfer, type LedgerPosting, type PayoutAmount } from './ledger';

export const payoutFeeGroup = (paymentId: string) => `${payoutIntentId(paymentId)}:fee`;

/** The fee of a payout; undefined when it charged none, as a group without entries means nothing. */
export function payoutFeeCharged(
  payout: Pick<PayoutAmount, 'paymentId' | 'mode' | 'merchantId' | 'amount' | 'netted' | 'fee'>,
): LedgerPosting | undefined {
  payoutTransfer(payout);
  const fee = payout.fee ?? 0n;
  if (fee === 0n) return undefined;
  return {
    groupId: payoutFeeGroup(payout.paymentId),
    mode: payout.mode,
    reference: payoutIntentId(payout.paymentId),
    entries: [
      { account: ACCOUNT.merchantPayable(payout.merchantId), asset: ASSET.usdcSolana, amount: fee },
      { account: ACCOUNT.operatorRevenue, asset: ASSET.usdcSolana, amount: -fee },
    ],
  };
}
