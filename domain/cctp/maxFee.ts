import { finalityThreshold } from './finality';
import type { CctpSpeed } from './finality';

/** One entry of `GET /v2/burn/USDC/fees/{src}/{dst}`: `minimumFee` in basis points, possibly fractional. */
export interface CctpFeeQuote {
  finalityThreshold: number;
  minimumFee: number;
}

export class CctpFeeError extends Error {
  override name = 'CctpFeeError';
}

const BPS_DENOMINATOR = 10_000n;

/**
 * The `maxFee` for a burn of `amount` minor units: the quoted bps of the amount, rounded up, and at least 1 when
 * the fee is on (TokenMessengerV2 charges no less). Since V2.1 a Standard burn under the minimum reverts too, so
 * both speeds take it from the quote. Throws when the quote lacks the speed or the fee would eat the whole amount
 * (the contract requires maxFee < amount).
 */
export function maxFeeFor(amount: bigint, quotes: readonly CctpFeeQuote[], speed: CctpSpeed): bigint {
  if (amount <= 0n) throw new CctpFeeError(`a burn amount must be positive, got ${amount}`);
  const threshold = finalityThreshold(speed);
  const quote = quotes.find((entry) => entry.finalityThreshold === threshold);
  if (!quote) throw new CctpFeeError(`the fee quote has no entry for finality threshold ${threshold} (${speed})`);
  const fraction = decimalFraction(quote.minimumFee);
  const rounded = bpsOf(amount, fraction);
  const maxFee = fraction.numerator > 0n && rounded === 0n ? 1n : rounded;
  if (maxFee >= amount) throw new CctpFeeError(`a fee of ${quote.minimumFee} bps leaves nothing of ${amount} (maxFee ${maxFee})`);
  return maxFee;
}

/**
 * CCTP_MAX_FEE_BPS unless configured: above the 0-14 bps Circle publishes for Fast transfers
 * (developers.circle.com/cctp/concepts/fees), so a real quote always passes, yet a wrong or compromised attestation
 * API can take no more than 0.2% of a burn (docs/settlement.md#cctp-transfers).
 */
export const DEFAULT_CCTP_MAX_FEE_BPS = 20;

export type BurnFeeVerdict =
  | { burn: true; speed: CctpSpeed; maxFee: bigint }
  /** Nothing is burned this run: the next scheduled run asks for a fresh quote. */
  | { burn: false; reason: string };

/**
 * The burn's speed and maxFee under the operator's ceiling of `ceilingBps` of the amount (rounded up like the fee).
 * A Fast quote above it falls back to Standard, which only takes longer; when no speed is within it, nothing is
 * burned. The ceiling is compared in base units, so the 1-unit floor of a tiny burn is held to it too.
 */
export function judgeBurnFee(amount: bigint, quotes: readonly CctpFeeQuote[], speed: CctpSpeed, ceilingBps: number): BurnFeeVerdict {
  const ceiling = bpsOf(amount, decimalFraction(ceilingBps));
  const refusals: string[] = [];
  for (const candidate of speed === 'fast' ? (['fast', 'standard'] as const) : (['standard'] as const)) {
    const maxFee = maxFeeFor(amount, quotes, candidate);
    if (maxFee <= ceiling) return { burn: true, speed: candidate, maxFee };
    refusals.push(`${candidate} asks maxFee ${maxFee}`);
  }
  return {
    burn: false,
    reason: `the CCTP fee quote is above CCTP_MAX_FEE_BPS=${ceilingBps} (at most ${ceiling} of ${amount}): ${refusals.join(', ')}`,
  };
}

function bpsOf(amount: bigint, { numerator, denominator }: { numerator: bigint; denominator: bigint }): bigint {
  const divisor = denominator * BPS_DENOMINATOR;
  return (amount * numerator + divisor - 1n) / divisor;
}

// Exact: a bps value like 1.3 must not become 1.2999999… through binary floating point.
function decimalFraction(bps: number): { numerator: bigint; denominator: bigint } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(bps));
  if (!Number.isFinite(bps) || !match) throw new CctpFeeError(`a fee in bps must be a non-negative number, got ${bps}`);
  const [, whole = '0', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(whole + fraction);
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}
