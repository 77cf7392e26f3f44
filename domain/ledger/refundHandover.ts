// The money of an automatic refund that ended without paying (docs/refunds.md#when-a-refund-ends-unpaid): nobody
// claimed it in time, the signer could not pay it, or an operator withdrew it. What the service owed the customer in
// the deposit's token on its chain goes to the operator, who decides what becomes of it; reissuing the refund gives it
// back to the customer. A merchant's refund posted nothing before its payment, so its end posts nothing. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';
import { ACCOUNT, tokenAsset, type LedgerPosting } from './ledger';

/** How an automatic refund ended unpaid: each its own ledger group, so a refund's money is handed over once. */
export type UnpaidRefundEnding = 'expired' | 'failed' | 'cancelled';

export interface AutomaticRefundMoney {
  refundId: string;
  mode: Mode;
  token: TokenSymbol;
  chain: Chain;
  amountBaseUnits: bigint;
}

export const refundHandoverGroup = (refundId: string, ending: UnpaidRefundEnding) => `refund:${refundId}:${ending}`;
export const refundReissueGroup = (refundId: string) => `refund:${refundId}:reissued`;

function moved(refund: AutomaticRefundMoney, groupId: string, from: string, to: string): LedgerPosting {
  if (refund.amountBaseUnits <= 0n)
    throw new RangeError(`refund ${refund.refundId}: an amount must be positive, got ${refund.amountBaseUnits}`);
  const asset = tokenAsset(refund.token, refund.chain);
  return {
    groupId,
    mode: refund.mode,
    reference: `refund:${refund.refundId}`,
    entries: [
      { account: from, asset, amount: refund.amountBaseUnits },
      { account: to, asset, amount: -refund.amountBaseUnits },
    ],
  };
}

/** The refund ended unpaid: what was owed to the customer is the operator's to decide on. */
export function refundHandedToOperator(refund: AutomaticRefundMoney, ending: UnpaidRefundEnding): LedgerPosting {
  return moved(refund, refundHandoverGroup(refund.refundId, ending), ACCOUNT.refundDue(refund.chain), ACCOUNT.operatorHeld(refund.chain));
}

/** `refund` reissues one that ended unpaid: what the operator held for it is owed to the customer again, under the new refund. */
export function refundReissued(refund: AutomaticRefundMoney): LedgerPosting {
  return moved(refund, refundReissueGroup(refund.refundId), ACCOUNT.operatorHeld(refund.chain), ACCOUNT.refundDue(refund.chain));
}
