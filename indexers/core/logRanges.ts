// What the log-based families (EVM, Tron) share in reading a block range's Transfer logs: one call per range, the
// range halved whenever a node refuses it, and the transfers put in chain order.
import type { ObservedTransfer } from './matchTransfers';
import { RpcCallError } from './rpcRetry';

/**
 * `read` over the range; a node that refuses it (too many blocks or results: 'range-too-large') gets the two
 * halves instead, down to single blocks. Any other failure, or a refused single block, is thrown.
 */
export async function logsSplittingOnRangeErrors<T>(
  read: (fromBlock: bigint, toBlock: bigint) => Promise<T[]>,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<T[]> {
  try {
    return await read(fromBlock, toBlock);
  } catch (error) {
    if (!(error instanceof RpcCallError) || error.errorClass !== 'range-too-large' || fromBlock === toBlock) throw error;
    const middle = fromBlock + (toBlock - fromBlock) / 2n;
    const first = await logsSplittingOnRangeErrors(read, fromBlock, middle);
    const second = await logsSplittingOnRangeErrors(read, middle + 1n, toBlock);
    return [...first, ...second];
  }
}

/** Sorted in place by block, then by log index within a block: the order deposits happened in. */
export function inChainOrder(transfers: ObservedTransfer[]): ObservedTransfer[] {
  return transfers.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}
