// The fee the operator keeps of a merchant's treasury payout (docs/settlement.md#fees): `bps` basis points of the
// payout's gross plus `fixedCents` US cents, in Solana USDC base units (1 cent = 10,000 units at 6 decimals). The
// percentage part rounds down to a whole base unit, in the merchant's favour; the sum is capped at the gross, so a fee
// never takes more than the payout. Both 0 (the default) is no fee. Pure.

/** A merchant's fee as the operator set it (checkout-admin merchant set-fee). */
export interface MerchantFee {
  bps: number;
  fixedCents: bigint;
}

export const NO_FEE: MerchantFee = { bps: 0, fixedCents: 0n };
export const MAX_FEE_BPS = 10_000;
const BASE_UNITS_PER_CENT = 10_000n;

/** The fee of a payout whose gross is `amount` USDC base units: between 0 and `amount`. */
export function payoutFee(amount: bigint, fee: MerchantFee): bigint {
  if (amount <= 0n) throw new RangeError(`a payout amount must be positive, got ${amount}`);
  if (!Number.isInteger(fee.bps) || fee.bps < 0 || fee.bps > MAX_FEE_BPS)
    throw new RangeError(`a fee is 0 to ${MAX_FEE_BPS} basis points, got ${fee.bps}`);
  if (fee.fixedCents < 0n) throw new RangeError(`a fixed fee is at least 0 cents, got ${fee.fixedCents}`);
  const charged = (amount * BigInt(fee.bps)) / 10_000n + fee.fixedCents * BASE_UNITS_PER_CENT;
  return charged < amount ? charged : amount;
}
