// The money of an automatic refund that ended unpaid, posted in the transaction that ends it
// (domain/ledger/refundHandover.ts): to operator_held, from where an operator's reissue gives it back to the customer
// (refundReissue.ts; docs/refunds.md#when-a-refund-ends-unpaid).
import { refundHandedToOperator, type UnpaidRefundEnding } from '../../domain/ledger/refundHandover';
import type { RefundSource } from '../../domain/refunds/refundSource';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { postLedger } from './ledger';

export interface RefundMoneyFacts {
  id: string;
  mode: Mode;
  source: RefundSource;
  token: TokenSymbol;
  chain: Chain;
  amountBaseUnits: bigint;
}

export const refundMoney = (refund: RefundMoneyFacts) => ({
  refundId: refund.id,
  mode: refund.mode,
  token: refund.token,
  chain: refund.chain,
  amountBaseUnits: refund.amountBaseUnits,
});

/** Hands an automatic refund's money to the operator as it ends unpaid; a merchant's refund posted nothing to hand over. */
export async function handOverUnpaidRefund(tx: Queryable, refund: RefundMoneyFacts, ending: UnpaidRefundEnding): Promise<void> {
  if (refund.source === 'merchant') return;
  await postLedger(tx, refundHandedToOperator(refundMoney(refund), ending));
}
