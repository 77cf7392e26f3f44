// What a landed EVM transaction cost its sender in the chain's native coin. On OP-stack chains (optimism, base) the
// sender also pays the L1 data fee, which the node reports as the receipt's `l1Fee` beside gasUsed × effectiveGasPrice;
// leaving it out would let relayer:<chain> drift from the relayer's balance by every transaction's data fee.

/** A receipt as viem returns it: `l1Fee` is a bigint with an OP-stack chain's formatter, the node's hex without one. */
export interface GasReceipt {
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  l1Fee?: unknown;
}

export function gasPaidWei(receipt: GasReceipt): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice + l1FeeOf(receipt.l1Fee);
}

function l1FeeOf(fee: unknown): bigint {
  if (fee === undefined || fee === null) return 0n;
  if (typeof fee === 'bigint') return fee;
  if (typeof fee === 'string' && /^0x[0-9a-fA-F]+$/.test(fee)) return BigInt(fee);
  throw new RangeError(`a receipt's l1Fee must be a quantity, got ${typeof fee === 'string' ? fee : typeof fee}`);
}
