// Reads the USDC/USDT Transfer logs of a block range with one eth_getLogs call filtered by token contract
// (never by recipient), so the calls per block stay the same however many deposit addresses are watched.
import { getAddress } from 'viem';
import type { Address, Hash } from 'viem';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import { inChainOrder, logsSplittingOnRangeErrors } from '../core/logRanges';
import type { ObservedTransfer } from '../core/matchTransfers';
import type { EvmRpc } from './evmRpc';

/** `blockHash`: the range is that one block, asked for by hash (see LogBlocks). */
export async function scanTransfers(
  rpc: EvmRpc,
  tokens: readonly TokenDeployment[],
  fromBlock: bigint,
  toBlock: bigint,
  blockHash?: Hash,
): Promise<ObservedTransfer[]> {
  if (tokens.length === 0 || toBlock < fromBlock) return [];
  const symbolByAddress = new Map(tokens.map((token) => [token.address.toLowerCase(), token.symbol]));
  const contracts = [...symbolByAddress.keys()] as Address[];
  const logs =
    blockHash !== undefined && fromBlock === toBlock
      ? await rpc.transferLogs(contracts, { blockHash })
      : await logsSplittingOnRangeErrors((from, to) => rpc.transferLogs(contracts, { fromBlock: from, toBlock: to }), fromBlock, toBlock);
  const transfers: ObservedTransfer[] = [];
  for (const log of logs) {
    const token = symbolByAddress.get(log.address);
    // The filter already restricts to these contracts; a node that ignores it must not smuggle in other tokens.
    if (!token) continue;
    transfers.push({
      token,
      from: getAddress(log.from),
      to: getAddress(log.to),
      amount: log.value,
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash,
    });
  }
  return inChainOrder(transfers);
}
