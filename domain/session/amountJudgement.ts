// Is what the customer sent enough? Pure and integer-only, so the workflow can decide deterministically.

export type AmountVerdict = 'exact' | 'under' | 'over';

export interface Tolerance {
  /** Basis points of the expected amount. */
  bps: number;
  /** Floor of the tolerance in USD cents. */
  minCents: bigint;
}

/**
 * The tolerance in base units: the larger of `bps` of the expected amount and the cents floor. The floor
 * is converted at 1 token = 1 USD, which is what a stablecoin quote rounds to at cent precision.
 */
export function toleranceBaseUnits(expected: bigint, decimals: number, tolerance: Tolerance): bigint {
  const proportional = (expected * BigInt(tolerance.bps)) / 10_000n;
  const floor = decimals >= 2 ? tolerance.minCents * 10n ** BigInt(decimals - 2) : tolerance.minCents / 10n ** BigInt(2 - decimals);
  return proportional > floor ? proportional : floor;
}

/** |received − expected| ≤ tolerance is exact; otherwise under or over. */
export function judgeAmount(received: bigint, expected: bigint, decimals: number, tolerance: Tolerance): AmountVerdict {
  const allowed = toleranceBaseUnits(expected, decimals, tolerance);
  if (received < expected - allowed) return 'under';
  if (received > expected + allowed) return 'over';
  return 'exact';
}
