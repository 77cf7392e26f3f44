// Tron HD deposit addresses (sessions from before the forwarders, deposit_addresses.tron_scheme = 'hd') are swept by
// their own key as the EVM ones are (domain/sweeps/evmHdSweep.ts): the address signs the TRC-20 transfer(collector, amount),
// after the relayer has sent it the TRX that transfer may burn. On Tron that is not gas times a price the node
// quotes: a TriggerSmartContract names a fee_limit, the most sun its energy may burn, and a transaction whose
// sender cannot cover it is refused. So the top-up is the fee limit less what the address holds. Bandwidth is not
// in it: an activated account's free daily bandwidth (600 points) covers one TRC-20 transfer.

/** The sun the relayer sends the address before its transfer: `feeLimitSun` less what it holds; 0 when it holds enough. */
export function tronHdSweepTopUp(feeLimitSun: bigint, heldSun: bigint): bigint {
  if (feeLimitSun <= 0n) throw new RangeError('a TRC-20 transfer has a fee limit above 0');
  if (heldSun < 0n) throw new RangeError('a TRX balance cannot be negative');
  return heldSun >= feeLimitSun ? 0n : feeLimitSun - heldSun;
}
