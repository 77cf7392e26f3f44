// The EVM JSON-RPC calls an indexer makes, through viem, each with its own timeout and the classified retries
// of core/rpcRetry. viem's own retries are off so that one place decides what is retried and counts it.
import {
  BaseError,
  BlockNotFoundError,
  createPublicClient,
  erc20Abi,
  getAbiItem,
  HttpRequestError,
  http,
  RpcError,
  TimeoutError,
} from 'viem';
import type { Address, Hash, PublicClient } from 'viem';
import type { ChainMetrics } from '../core/metrics';
import { withRpcRetries, type RetryPolicy, type RpcErrorClass } from '../core/rpcRetry';

export interface EvmBlockHeader {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  timestamp: bigint;
}

export interface RawTransferLog {
  /** Lowercase, as nodes return it. */
  address: Address;
  from: Address;
  to: Address;
  value: bigint;
  transactionHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
}

export interface EvmRpc {
  chainId(): Promise<number>;
  blockNumber(): Promise<bigint>;
  /** null when the node has no block at that height (the chain is shorter than asked). */
  block(number: bigint): Promise<EvmBlockHeader | null>;
  /** Every `Transfer` emitted by any of `tokens` in [fromBlock, toBlock], or in one block by hash: one eth_getLogs call. */
  transferLogs(tokens: readonly Address[], blocks: LogBlocks): Promise<RawTransferLog[]>;
}

/**
 * A block range, or one block by hash (EIP-234). By hash, a node that does not have the block answers with an
 * error (retried on the next endpoint) instead of an empty list, as a node lagging behind a pool's head does
 * for a range it has not reached.
 */
export type LogBlocks = { fromBlock: bigint; toBlock: bigint } | { blockHash: Hash };

export interface EvmRpcOptions {
  urls: string[];
  timeoutMs: number;
  retry: RetryPolicy;
  metrics: ChainMetrics;
  signal?: AbortSignal;
}

const transferEvent = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

// Providers word "your eth_getLogs asked for too much" differently (Infura -32005, Alchemy -32602, QuickNode
// -32614, others free text); all of them mean: ask for a smaller block range.
const RANGE_TOO_LARGE =
  /block range|range (is )?too (large|wide)|more than \d+ (results|logs)|response size|limited to a? ?\d+|too many (results|logs|blocks)/i;
const RATE_LIMITED = /rate limit|too many requests|request count/i;

export function classifyEvmRpcError(error: unknown): RpcErrorClass {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof TimeoutError) return 'timeout';
    if (e instanceof HttpRequestError) {
      if (e.status === undefined) return 'network';
      if (e.status === 408) return 'timeout';
      if (e.status === 429) return 'rate-limited';
      return e.status >= 500 ? 'server' : 'fatal';
    }
    if (e instanceof RpcError) {
      const text = `${e.shortMessage} ${e.details}`;
      if (RATE_LIMITED.test(text)) return 'rate-limited';
      if (RANGE_TOO_LARGE.test(text)) return 'range-too-large';
      // -32005 limit exceeded is also how Infura says 429; -32603/-32002/-32000 are the node's own trouble.
      if (e.code === -32005) return 'rate-limited';
      if (e.code === -32603 || e.code === -32002 || e.code === -32000) return 'server';
      return 'fatal';
    }
    if (!(e instanceof BaseError) && e instanceof Error && e.name === 'TypeError') return 'network';
  }
  return 'fatal';
}

export function createEvmRpc(options: EvmRpcOptions): EvmRpc {
  if (options.urls.length === 0) throw new Error('an EVM indexer needs at least one RPC URL');
  // cacheTime 0: viem would otherwise answer eth_blockNumber from a cache for up to its polling interval.
  const clients: PublicClient[] = options.urls.map((url) =>
    createPublicClient({ transport: http(url, { timeout: options.timeoutMs, retryCount: 0 }), cacheTime: 0 }),
  );
  const { metrics } = options;
  const hooks = {
    classify: classifyEvmRpcError,
    onAttempt: (method: string) => {
      metrics.rpcCalls[method] = (metrics.rpcCalls[method] ?? 0) + 1;
    },
    onError: (_method: string, errorClass: RpcErrorClass) => {
      metrics.rpcErrors[errorClass] += 1;
    },
    ...(options.signal ? { signal: options.signal } : {}),
  };
  // A retry goes to the next endpoint: a rate-limited or failing provider is the likeliest cause.
  const call = <T>(method: string, run: (client: PublicClient) => Promise<T>) =>
    withRpcRetries(method, options.retry, hooks, (attempt) => run(clients[attempt % clients.length] as PublicClient));

  return {
    chainId: () => call('eth_chainId', (client) => client.getChainId()),
    blockNumber: () => call('eth_blockNumber', (client) => client.getBlockNumber({ cacheTime: 0 })),
    block: (number) =>
      call('eth_getBlockByNumber', async (client) => {
        try {
          const block = await client.getBlock({ blockNumber: number, includeTransactions: false });
          return { number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
        } catch (error) {
          if (error instanceof BlockNotFoundError) return null;
          throw error;
        }
      }),
    transferLogs: (tokens, blocks) =>
      call('eth_getLogs', async (client) => {
        const logs = await client.getLogs({ address: [...tokens], event: transferEvent, ...blocks, strict: true });
        return logs.map((log) => ({
          address: log.address.toLowerCase() as Address,
          from: log.args.from,
          to: log.args.to,
          value: log.args.value,
          transactionHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
        }));
      }),
  };
}
