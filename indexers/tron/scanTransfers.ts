// Reads the USDC/USDT TRC-20 Transfer logs of a block range with one eth_getLogs call filtered by token
// contract and the Transfer topic (never by recipient), so the calls per block stay the same however many
// deposit addresses are watched. This is where a log's 20-byte topic addresses become base58 `T…`, once.
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import type { TokenSymbol } from '../../domain/chains/chains';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../domain/addresses/tron';
import { inChainOrder, logsSplittingOnRangeErrors } from '../core/logRanges';
import type { ObservedTransfer } from '../core/matchTransfers';
import { tronHash, type RawTronLog, type TronRpc } from './tronRpc';

/** keccak256("Transfer(address,address,uint256)"): TRC-20 keeps ERC-20's event layout. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const ADDRESS_TOPIC = /^0x0{24}([0-9a-fA-F]{40})$/;
const UINT256_DATA = /^0x[0-9a-fA-F]{64}$/;

/**
 * A TRC-20 Transfer log as java-tron writes it: topics [signature, from, to] with the accounts left-padded to
 * 32 bytes and without the 0x41 prefix, the amount as the 32-byte data. Anything else (a token that indexes
 * the amount, a malformed log) is not a transfer this service can credit: undefined.
 */
export function decodeTransferLog(log: RawTronLog, token: TokenSymbol): ObservedTransfer | undefined {
  const [signature, fromTopic, toTopic] = log.topics;
  if (log.topics.length !== 3 || signature?.toLowerCase() !== TRANSFER_TOPIC || !UINT256_DATA.test(log.data)) return undefined;
  const from = ADDRESS_TOPIC.exec(fromTopic ?? '')?.[1];
  const to = ADDRESS_TOPIC.exec(toTopic ?? '')?.[1];
  if (from === undefined || to === undefined) return undefined;
  return {
    token,
    from: tronAddressFromEvmHex(`0x${from}`),
    to: tronAddressFromEvmHex(`0x${to}`),
    amount: BigInt(log.data),
    txHash: tronHash(log.transactionHash, 'transactionHash'),
    logIndex: Number(BigInt(log.logIndex)),
    blockNumber: BigInt(log.blockNumber),
    blockHash: tronHash(log.blockHash, 'blockHash'),
  };
}

export async function scanTransfers(
  rpc: TronRpc,
  tokens: readonly TokenDeployment[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<ObservedTransfer[]> {
  if (tokens.length === 0 || toBlock < fromBlock) return [];
  const symbolByContract = new Map(tokens.map((token) => [tronAddressToEvmHex(token.address), token.symbol]));
  const contracts = [...symbolByContract.keys()];
  const logs = await logsSplittingOnRangeErrors((from, to) => rpc.logs(contracts, TRANSFER_TOPIC, from, to), fromBlock, toBlock);
  const transfers: ObservedTransfer[] = [];
  for (const log of logs) {
    // The filter already restricts to these contracts; a node that ignores it must not smuggle in other tokens.
    const token = symbolByContract.get(log.address.toLowerCase() as `0x${string}`);
    if (!token) continue;
    const transfer = decodeTransferLog(log, token);
    if (transfer) transfers.push(transfer);
  }
  return inChainOrder(transfers);
}
