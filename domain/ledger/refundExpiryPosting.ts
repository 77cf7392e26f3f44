// An automatic refund nobody claimed in time (docs/refunds.md#expiry): what the service owed the customer in the
// deposit's token on its chain goes to the operator, who decides what becomes of it. A merchant's refund posted
// nothing before its payment, so its expiry posts nothing. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';
import { ACCOUNT, tokenAsset, type LedgerPosting } from './ledger';

export interface ExpiredRefund {
  refundId: string;
  mode: Mode;
  token: TokenSymbol;
  chain: Chain;
  amountBaseUnits: bigint;
}

export const refundExpiredGroup = (refundId: string) => `refund:${refundId}:expired`;

export function refundExpired(refund: ExpiredRefund): LedgerPosting {
  if (refund.amountBaseUnits <= 0n) throw new RangeError(`an expired refund's amount must be positive, got ${refund.amountBaseUnits}`);
  const asset = tokenAsset(refund.token, refund.chain);
  return {
    groupId: refundExpiredGroup(refund.refundId),
    mode: refund.mode,
    reference: `refund:${refund.refundId}`,
    entries: [
      { account: ACCOUNT.refundDue(refund.chain), asset, amount: refund.amountBaseUnits },
      { account: ACCOUNT.operatorHeld(refund.chain), asset, amount: -refund.amountBaseUnits },
    ],
  };
}
