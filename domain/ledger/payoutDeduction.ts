// What a payout deducts before it sends (its netting, the operator's fee): the merchant is owed less (merchant_payable
// debit) and another account takes the amount (credit), in Solana USDC that stays in the treasury. Keyed on the
// payment, not the payout generation: a payout paid again after its transaction failed keeps the deductions it was
// written with, and never makes them twice. Pure.
import { payoutIntentId } from '../chainWrites/solanaChainIntent';
import type { Mode } from '../wire/session';
import { ACCOUNT, ASSET, type LedgerPosting } from './ledger';

export const payoutDeductionGroup = (paymentId: string, kind: 'netted' | 'fee') => `${payoutIntentId(paymentId)}:${kind}`;

/** Undefined for a zero amount, as a group without entries means nothing. */
export function payoutDeductionPosting(
  payout: { paymentId: string; mode: Mode; merchantId: string },
  kind: 'netted' | 'fee',
  amount: bigint,
  creditAccount: string,
): LedgerPosting | undefined {
  if (amount === 0n) return undefined;
  return {
    groupId: payoutDeductionGroup(payout.paymentId, kind),
    mode: payout.mode,
    reference: payoutIntentId(payout.paymentId),
    entries: [
      { account: ACCOUNT.merchantPayable(payout.merchantId), asset: ASSET.usdcSolana, amount },
      { account: creditAccount, asset: ASSET.usdcSolana, amount: -amount },
    ],
  };
}
