// HD EOA deposit addresses (sessions from before the forwarders, deposit_addresses.evm_scheme = 'hd') are swept by
// their own key: the address signs transfer(collector, amount), and the relayer first sends it the
// native coin that transaction can cost, since the address holds only tokens. What the top-up is, which fees the
// funded transfer may be signed with, and what a landed transfer moved are decided here.
import type { Fees } from '../chainWrites/evmChainIntent';

/**
 * The native coin, in wei, the relayer sends the address before its transfer: the most the transfer can cost (its
 * gas limit at the max fee it will be signed with) less what the address holds; 0 when it holds enough already.
 */
export function hdSweepTopUp(cost: { gasLimit: bigint; fees: Fees }, heldWei: bigint): bigint {
  if (cost.gasLimit <= 0n || cost.fees.maxFeePerGas <= 0n) throw new RangeError('a transfer costs some gas at some price');
  const needed = cost.gasLimit * cost.fees.maxFeePerGas;
  return heldWei >= needed ? 0n : needed - heldWei;
}

/**
 * The highest maxFeePerGas the address can pay for a transaction with `gasLimit`: the transfer (or its replacement)
 * is signed under it, so a node never refuses it for funds; with fees above it, the transfer waits for them to fall.
 */
export function fundedMaxFeePerGas(heldWei: bigint, gasLimit: bigint): bigint {
  if (gasLimit <= 0n) throw new RangeError('a transaction has a positive gas limit');
  return heldWei / gasLimit;
}

export interface TokenTransferLog {
  /** The contract that emitted it: only the swept token's events count. */
  emitter: string;
  from: string;
  to: string;
  value: bigint;
  logIndex: number;
}

/**
 * What a landed transfer moved from the deposit address to the collector, from the token's Transfer events (a fee
 * on transfer or a token that moves less than asked shows here, not in the call), and the last such event's index.
 */
export function hdSweptAmount(
  logs: readonly TokenTransferLog[],
  swept: { token: string; from: string; to: string },
): { moved: bigint; lastLogIndex: number | undefined } {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  let moved = 0n;
  let lastLogIndex: number | undefined;
  for (const log of logs) {
    if (!same(log.emitter, swept.token) || !same(log.from, swept.from) || !same(log.to, swept.to)) continue;
    moved += log.value;
    lastLogIndex = Math.max(lastLogIndex ?? log.logIndex, log.logIndex);
  }
  return { moved, lastLogIndex };
}
