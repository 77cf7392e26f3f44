// An unmatched deposit (another token or chain than the session's pair) the merchant credited to its session after all
// (docs/refunds.md#crediting-an-unmatched-deposit). It was posted whole as owed back to the customer (deposit:<…>, as
// refundOnlyDepositReceived); its credit moves the part that pays the session's price from refund_due to
// merchant_pending, under a group of its own, so the deposit ends posted as a deposit credited on arrival is, and the
// rest stays owed back. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';
import { ACCOUNT, depositReference, tokenAsset, type LedgerPosting } from './ledger';

export interface CreditedUnmatchedDeposit {
  chain: Chain;
  token: TokenSymbol;
  txHash: string;
  logIndex: number;
  mode: Mode;
  /** Base units of it that pay the session's price, as creditPostings would split it (domain/ledger/depositPostings.ts). */
  merchantUnits: bigint;
}

export const depositCreditedGroup = (deposit: Pick<CreditedUnmatchedDeposit, 'chain' | 'txHash' | 'logIndex'>) =>
  `${depositReference(deposit)}:credited`;

/** The posting, or none when no unit of it pays the price (all of it stays owed back). */
export function unmatchedDepositCredited(deposit: CreditedUnmatchedDeposit): LedgerPosting | undefined {
  if (deposit.merchantUnits < 0n) throw new RangeError(`a merchant's share cannot be negative, got ${deposit.merchantUnits}`);
  if (deposit.merchantUnits === 0n) return undefined;
  const asset = tokenAsset(deposit.token, deposit.chain);
  return {
    groupId: depositCreditedGroup(deposit),
    mode: deposit.mode,
    reference: depositReference(deposit),
    entries: [
      { account: ACCOUNT.refundDue(deposit.chain), asset, amount: deposit.merchantUnits },
      { account: ACCOUNT.merchantPending(deposit.chain), asset, amount: -deposit.merchantUnits },
    ],
  };
}
