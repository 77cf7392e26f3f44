// The posting of what a payout netted from its merchant's receivable (docs/refunds.md#ledger): the merchant is owed
// less (merchant_payable debit) because it owes less (merchant_receivable credit), in Solana USDC. Keyed on the
// payment, not the payout generation: a payout paid again after its transaction failed keeps the netting it made, and
// never nets a second time. Pure.
import { payoutIntentId } from '../chainWrites/solanaChainIntent';
import { ACCOUNT, ASSET, type LedgerPosting, type PayoutAmount } from './ledger';

export const payoutNettedGroup = (paymentId: string) => `${payoutIntentId(paymentId)}:netted`;

/** The netting of a payout; undefined when it netted nothing, as a group without entries means nothing. */
export function payoutNetted(
  payout: Pick<PayoutAmount, 'paymentId' | 'mode' | 'merchantId' | 'amount' | 'netted'>,
): LedgerPosting | undefined {
  const netted = payout.netted ?? 0n;
  if (netted < 0n || netted > payout.amount) throw new RangeError(`a payout nets between 0 and its amount ${payout.amount}, got ${netted}`);
  if (netted === 0n) return undefined;
  return {
    groupId: payoutNettedGroup(payout.paymentId),
    mode: payout.mode,
    reference: payoutIntentId(payout.paymentId),
    entries: [
      { account: ACCOUNT.merchantPayable(payout.merchantId), asset: ASSET.usdcSolana, amount: netted },
      { account: ACCOUNT.merchantReceivable(payout.merchantId), asset: ASSET.usdcSolana, amount: -netted },
    ],
  };
}
