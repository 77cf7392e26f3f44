// What a held-inventory withdrawal may take (docs/settlement.md#held-inventory), judged by the signer before anything
// is written ahead: no more than the ledger holds in the collector (what landed sweeps put there, less what left) and
// no more than the chain shows it holding; either short, and the withdrawal is refused.

/** Why `amount` may not be withdrawn, or undefined when both the ledger and the chain hold it. */
export function withdrawalShortfall(
  withdrawal: { amount: bigint; token: string },
  held: { ledger: bigint; chain: bigint },
): string | undefined {
  if (held.ledger < withdrawal.amount)
    return `the ledger holds ${held.ledger} base units of ${withdrawal.token} in the collector, less than ${withdrawal.amount}`;
  if (held.chain < withdrawal.amount)
    return `the collector holds ${held.chain} base units of ${withdrawal.token} at depth, less than ${withdrawal.amount}`;
  return undefined;
}
