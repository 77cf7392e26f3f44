// What a refund costs and who bears it (docs/refunds.md#fees). Every refund is a Solana USDC transfer from the
// treasury, which pays its SOL fee (and the rent of the customer's USDC account when it has none); a flat network fee
// in USD, REFUND_NETWORK_FEE_USD, stands for that cost. Policy `deducted` takes it from what the customer is paid;
// `merchant` pays the customer the whole amount and adds the fee to what the merchant owes the service. Pure.
import type { FeePolicy } from '../wire/refund';

export const DEFAULT_REFUND_NETWORK_FEE_USD = '0.01';

/** The largest fee the configuration accepts: a fee above it is a typo, not a network cost. */
export const MAX_REFUND_NETWORK_FEE_USD = 100;

/** USD with at most six decimals (a micro-dollar is the smallest USDC unit), from 0 to MAX_REFUND_NETWORK_FEE_USD. */
export const REFUND_NETWORK_FEE_PATTERN = /^\d{1,3}(\.\d{1,6})?$/;

/** A fee in USD (REFUND_NETWORK_FEE_USD) in USD micro-units, exactly: no float ever touches it. */
export function refundFeeMicros(feeUsd: string): bigint {
  const value = feeUsd.trim();
  if (!REFUND_NETWORK_FEE_PATTERN.test(value)) throw new RangeError(`a refund fee must be USD with at most 6 decimals, got "${feeUsd}"`);
  const [whole = '0', fraction = ''] = value.split('.');
  const micros = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  if (micros > BigInt(MAX_REFUND_NETWORK_FEE_USD) * 1_000_000n)
    throw new RangeError(`a refund fee must be at most ${MAX_REFUND_NETWORK_FEE_USD} USD, got "${feeUsd}"`);
  return micros;
}

/** How a refund of `amountUsdMicros` divides: all in USDC base units (one per USD micro-unit). */
export type RefundCharge =
  | {
      kind: 'charged';
      /** What the transfer moves to the customer. */
      paid: bigint;
      /** The network fee: kept from the refund (deducted) or owed by the merchant (merchant). */
      fee: bigint;
      /** What the merchant owes for the fee: the fee under `merchant`, nothing under `deducted`. */
      merchantFee: bigint;
    }
  | { kind: 'refused'; reason: string };

export function refundCharge(amountUsdMicros: bigint, policy: FeePolicy, feeMicros: bigint): RefundCharge {
  if (amountUsdMicros <= 0n) return { kind: 'refused', reason: `a refund must be of a positive amount, got ${amountUsdMicros}` };
  if (feeMicros < 0n) throw new RangeError('a refund fee cannot be negative');
  if (policy === 'merchant') return { kind: 'charged', paid: amountUsdMicros, fee: feeMicros, merchantFee: feeMicros };
  // A refund that the fee would swallow would send the customer nothing, or a dust transfer that costs more than it is.
  if (amountUsdMicros <= feeMicros)
    return {
      kind: 'refused',
      reason: `the refund of ${amountUsdMicros} USD micro-units is not larger than the network fee of ${feeMicros} taken from it`,
    };
  return { kind: 'charged', paid: amountUsdMicros - feeMicros, fee: feeMicros, merchantFee: 0n };
}
