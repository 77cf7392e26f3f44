// Money is integer base units (bigint) everywhere; the only JS numbers are the USD values the contract
// itself defines as JSON numbers, and those are converted at the edge.

/** True when `value`'s shortest decimal form has at most `places` fraction digits (1e-7 has seven). */
export function hasAtMostDecimals(value: number, places: number): boolean {
  if (!Number.isFinite(value)) return false;
  const text = String(value);
  if (/e/i.test(text)) {
    const [mantissa = '', exponent = '0'] = text.toLowerCase().split('e');
    const fraction = mantissa.split('.')[1]?.length ?? 0;
    return fraction - Number(exponent) <= places;
  }
  return (text.split('.')[1]?.length ?? 0) <= places;
}

/** USD number with at most 2 decimals → integer cents. */
export function usdToCents(amountUsd: number): bigint {
  if (!hasAtMostDecimals(amountUsd, 2)) throw new RangeError(`${amountUsd} has more than 2 decimal places`);
  return BigInt(Math.round(amountUsd * 100));
}

/** Integer cents → the contract's USD JSON number. Exact: every cents value below 2^53 prints as itself / 100. */
export function centsToUsd(cents: bigint): number {
  return Number(cents) / 100;
}

/** Digits, then optionally a point and one or two digits: what a person writes for dollars and cents. */
export const USD_TEXT = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * A USD amount given as text (a query parameter, a command-line argument) → integer cents, straight from
 * the digits, never through a JS number, so "0.29" is 29 cents and no amount is too large to be exact.
 * Throws a RangeError naming the text for anything else: signs, exponents, spaces, "5.", a third decimal.
 */
export function parseUsdCents(text: string): bigint {
  const match = USD_TEXT.exec(text);
  if (!match) throw new RangeError(`"${text}" is not a USD amount: write digits with at most 2 decimals, such as 25.50`);
  const [, dollars = '0', cents = ''] = match;
  return BigInt(dollars) * 100n + BigInt(cents.padEnd(2, '0'));
}
