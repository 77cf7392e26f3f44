// The range splitting both log-based families (EVM, Tron) read their Transfer logs through: a refused range is
// asked for in halves, down to single blocks; any other failure reaches the indexer loop, which retries the range.
import { describe, expect, it } from 'vitest';
import { inChainOrder, logsSplittingOnRangeErrors } from '../../../indexers/core/logRanges';
import type { ObservedTransfer } from '../../../indexers/core/matchTransfers';
import { RpcCallError, type RpcErrorClass } from '../../../indexers/core/rpcRetry';

/** A node that answers ranges of at most `maxBlocks` blocks with one log per block, and records what it was asked. */
function node(maxBlocks: bigint, refusal: RpcErrorClass = 'range-too-large') {
  const asked: string[] = [];
  const read = async (from: bigint, to: bigint) => {
    asked.push(`${from}-${to}`);
    if (to - from + 1n > maxBlocks) throw new RpcCallError('eth_getLogs', refusal, 1, new Error('block range too large'));
    const logs: bigint[] = [];
    for (let block = from; block <= to; block++) logs.push(block);
    return logs;
  };
  return { asked, read };
}

describe('logsSplittingOnRangeErrors', () => {
  it('asks once for a range the node answers', async () => {
    const { asked, read } = node(10n);
    expect(await logsSplittingOnRangeErrors(read, 1n, 10n)).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n]);
    expect(asked).toEqual(['1-10']);
  });

  it('halves a refused range until the node answers, keeping the logs in block order', async () => {
    const { asked, read } = node(2n);
    expect(await logsSplittingOnRangeErrors(read, 1n, 6n)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
    expect(asked).toEqual(['1-6', '1-3', '1-2', '3-3', '4-6', '4-5', '6-6']);
  });

  it('throws a refused single block and any other failure without splitting', async () => {
    await expect(logsSplittingOnRangeErrors(node(0n).read, 5n, 5n)).rejects.toThrow(/range-too-large/);
    const failing = node(1n, 'server');
    await expect(logsSplittingOnRangeErrors(failing.read, 1n, 4n)).rejects.toThrow(/\(server\)/);
    expect(failing.asked).toEqual(['1-4']);
  });
});

describe('inChainOrder', () => {
  it('orders transfers by block, then by log index within a block', () => {
    const transfer = (blockNumber: bigint, logIndex: number): ObservedTransfer => ({
      token: 'USDC',
      from: 'a',
      to: 'b',
      amount: 1n,
      txHash: `${blockNumber}:${logIndex}`,
      logIndex,
      blockNumber,
      blockHash: `h${blockNumber}`,
    });
    const ordered = inChainOrder([transfer(10n, 2), transfer(9n, 7), transfer(10n, 0), transfer(100n, 1)]);
    expect(ordered.map((t) => t.txHash)).toEqual(['9:7', '10:0', '10:2', '100:1']);
  });
});
