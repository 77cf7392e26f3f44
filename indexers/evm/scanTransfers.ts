// Reads the USDC/USDT Transfer logs of a block range with one eth_getLogs call filtered by token contract
// (never by recipient), so the calls per block stay the same however many deposit addresses are watched.
import { getAddress } from 'viem';
import type { Address, Hash } from 'viem';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import type { TokenSymbol } from '../../domain/chains/chains';
import { RpcCallError } from '../core/rpcRetry';
import type { EvmRpc, RawTransferLog } from './evmRpc';

export interface TokenTransfer {
  token: TokenSymbol;
  /** EIP-55, as the service stores EVM addresses. */
  from: Address;
  to: Address;
  /** Base units of the token on this chain (18 decimals on bsc): never a JS number. */
  amount: bigint;
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
}

/** `blockHash`: the range is that one block, asked for by hash (see LogBlocks). */
export async function scanTransfers(rpc: EvmRpc, tokens: readonly TokenDeployment[], fromBlock: bigint, toBlock: bigint, blockHash?: Hash): Promise<TokenTransfer[]> {
  if (tokens.length === 0 || toBlock < fromBlock) return [];
  const symbolByAddress = new Map(tokens.map((token) => [token.address.toLowerCase(), token.symbol]));
  const contracts = [...symbolByAddress.keys()] as Address[];
  const logs = blockHash !== undefined && fromBlock === toBlock ? await rpc.transferLogs(contracts, { blockHash }) : await logsSplittingOnRangeErrors(rpc, contracts, fromBlock, toBlock);
  const transfers: TokenTransfer[] = [];
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
  return transfers.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}

/** A provider that refuses the range (too many blocks or results) gets the two halves instead. */
async function logsSplittingOnRangeErrors(rpc: EvmRpc, addresses: Address[], fromBlock: bigint, toBlock: bigint): Promise<RawTransferLog[]> {
  try {
    return await rpc.transferLogs(addresses, { fromBlock, toBlock });
  } catch (error) {
    if (!(error instanceof RpcCallError) || error.errorClass !== 'range-too-large' || fromBlock === toBlock) throw error;
    const middle = fromBlock + (toBlock - fromBlock) / 2n;
    const first = await logsSplittingOnRangeErrors(rpc, addresses, fromBlock, middle);
    const second = await logsSplittingOnRangeErrors(rpc, addresses, middle + 1n, toBlock);
    return [...first, ...second];
  }
}
