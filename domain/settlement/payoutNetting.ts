// What a payout collects of what its merchant owes for refunds of money already paid out (docs/refunds.md#funding):
// as much of the merchant's outstanding receivable as the payout's gross covers, after the operator's fee
// (docs/settlement.md#fees), which comes off the gross first. The gross stays what the payment's deposits owe the
// merchant; the transaction moves the rest, and a payout the fee and netting take whole moves nothing. Pure.

/**
 * The part of a payout's gross `amount` that repays the merchant's `receivable`, out of what the `fee` leaves: none of a
 * receivable at or below zero.
 */
export function nettedFromPayout(receivable: bigint, amount: bigint, fee = 0n): bigint {
  if (amount <= 0n) throw new RangeError(`a payout amount must be positive, got ${amount}`);
  if (fee < 0n || fee > amount) throw new RangeError(`a payout's fee is between 0 and its amount ${amount}, got ${fee}`);
  const left = amount - fee;
  if (receivable <= 0n) return 0n;
  return receivable < left ? receivable : left;
}

/** The settlement reference of a payout netted whole: no transaction signature to name, the payment's netting instead. */
export const nettedSettlementReference = (paymentId: string) => `netted:${paymentId}`;

export type NettedTransferVerdict = { kind: 'transfer'; amount: bigint } | { kind: 'refused'; reason: string };

/**
 * At signing: what the payout's transaction may move, from the row's gross, netting and fee and the ledger's postings of
 * them (`posted`: what the netting group credited the merchant's receivable, `postedFee`: what the fee group credited
 * operator_revenue, each zero when it has none). A row whose deductions the ledger does not bear out is refused: signing
 * more than the gross less them would pay the merchant what it already repaid its debt with, or the operator's fee.
 * Whatever it answers is at most the gross the deposits back.
 */
export function judgeNettedTransfer(row: {
  paymentId: string;
  amount: bigint;
  netted: bigint;
  posted: bigint;
  fee?: bigint;
  postedFee?: bigint;
}): NettedTransferVerdict {
  const { paymentId, amount, netted, posted } = row;
  const fee = row.fee ?? 0n;
  const postedFee = row.postedFee ?? 0n;
  if (netted < 0n || fee < 0n || netted + fee >= amount)
    return {
      kind: 'refused',
      reason: `payout of ${paymentId} nets ${netted} and charges ${fee} of ${amount}: nothing is left for a transaction`,
    };
  if (posted !== netted)
    return { kind: 'refused', reason: `payout of ${paymentId} nets ${netted}, and the ledger's netting of it is ${posted}` };
  if (postedFee !== fee)
    return { kind: 'refused', reason: `payout of ${paymentId} charges a fee of ${fee}, and the ledger's fee of it is ${postedFee}` };
  return { kind: 'transfer', amount: amount - netted - fee };
}
