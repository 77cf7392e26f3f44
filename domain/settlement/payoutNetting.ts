// What a payout collects of what its merchant owes for refunds of money already paid out (docs/refunds.md#funding):
// as much of the merchant's outstanding receivable as the payout's gross covers. The gross stays what the payment's
// deposits owe the merchant; the transaction moves the rest, and a payout netted whole moves nothing. Pure.

/** The part of a payout's gross `amount` that repays the merchant's `receivable`: none of a receivable at or below zero. */
export function nettedFromPayout(receivable: bigint, amount: bigint): bigint {
  if (amount <= 0n) throw new RangeError(`a payout amount must be positive, got ${amount}`);
  if (receivable <= 0n) return 0n;
  return receivable < amount ? receivable : amount;
}

/** The settlement reference of a payout netted whole: no transaction signature to name, the payment's netting instead. */
export const nettedSettlementReference = (paymentId: string) => `netted:${paymentId}`;

export type NettedTransferVerdict = { kind: 'transfer'; amount: bigint } | { kind: 'refused'; reason: string };

/**
 * At signing: what the payout's transaction may move, from the row's gross and netting and the ledger's posting of that
 * netting (`posted`: what its group credited the merchant's receivable, zero when it has none). A row whose netting the
 * ledger does not bear out is refused: signing its gross would pay the merchant what it already repaid its debt with.
 */
export function judgeNettedTransfer(row: { paymentId: string; amount: bigint; netted: bigint; posted: bigint }): NettedTransferVerdict {
  const { paymentId, amount, netted, posted } = row;
  if (netted < 0n || netted >= amount)
    return { kind: 'refused', reason: `payout of ${paymentId} nets ${netted} of ${amount}: nothing is left for a transaction` };
  if (posted !== netted)
    return { kind: 'refused', reason: `payout of ${paymentId} nets ${netted}, and the ledger's netting of it is ${posted}` };
  return { kind: 'transfer', amount: amount - netted };
}
