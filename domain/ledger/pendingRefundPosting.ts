// A credited deposit whose session will never pay the merchant (docs/refunds.md#sources): an underpaid session that
// expired with its merchant's choice `refund`, or a failed settlement an operator gives back instead of settling again.
// What its credit left pending for the merchant becomes owed back to the customer, in the deposit's token on its
// chain, before the refund that returns it is opened. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';
import { ACCOUNT, depositReference, tokenAsset, type LedgerPosting } from './ledger';

export interface PendingDeposit {
  chain: Chain;
  token: TokenSymbol;
  txHash: string;
  logIndex: number;
  mode: Mode;
  /** Base units its credit posted to merchant_pending:<chain> (deposit:<chain>:<tx>:<index>). */
  pending: bigint;
}

export const depositRefundedGroup = (deposit: Pick<PendingDeposit, 'chain' | 'txHash' | 'logIndex'>) =>
  `${depositReference(deposit)}:refunded`;

export function pendingDepositRefunded(deposit: PendingDeposit): LedgerPosting {
  if (deposit.pending <= 0n) throw new RangeError(`a refunded deposit's pending units must be positive, got ${deposit.pending}`);
  const asset = tokenAsset(deposit.token, deposit.chain);
  return {
    groupId: depositRefundedGroup(deposit),
    mode: deposit.mode,
    reference: depositReference(deposit),
    entries: [
      { account: ACCOUNT.merchantPending(deposit.chain), asset, amount: deposit.pending },
      { account: ACCOUNT.refundDue(deposit.chain), asset, amount: -deposit.pending },
    ],
  };
}
