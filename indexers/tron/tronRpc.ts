// The calls a Tron indexer makes, against java-tron's Ethereum-compatible JSON-RPC (`/jsonrpc`, which TronGrid
// and every full node with `node.jsonrpc.httpFullNodeEnable` serve): eth_chainId, eth_blockNumber,
// eth_getBlockByNumber and eth_getLogs. Plain fetch, each call with its own timeout and the classified retries
// of core/rpcRetry. Hex ids come back as Tron writes them natively: 64 hex characters, no 0x.
import type { ChainMetrics } from '../core/metrics';
import { withRpcRetries, type RetryPolicy, type RpcErrorClass } from '../core/rpcRetry';

export interface TronBlockHeader {
  number: bigint;
  /** The block id: 8 bytes of height then 24 bytes of hash, lowercase hex without 0x. */
  hash: string;
  parentHash: string;
  /** Seconds. */
  timestamp: bigint;
}

/** A log as eth_getLogs returns it; decoded (and addresses converted) by scanTransfers. */
export interface RawTronLog {
  /** Emitting contract, 0x + 20 bytes (no 0x41 prefix). */
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  /** Index within the block, over all its transactions. */
  logIndex: string;
  blockNumber: string;
  blockHash: string;
}

export interface TronRpc {
  chainId(): Promise<number>;
  blockNumber(): Promise<bigint>;
  /** null when the node has no block at that height. */
  block(number: bigint): Promise<TronBlockHeader | null>;
  /** Every log with `topic0` emitted by any of `contracts` (0x + 20 bytes) in [fromBlock, toBlock]: one call. */
  logs(contracts: readonly string[], topic0: string, fromBlock: bigint, toBlock: bigint): Promise<RawTronLog[]>;
}

export interface TronRpcOptions {
  /** JSON-RPC endpoints, e.g. https://api.trongrid.io/jsonrpc; each retry goes to the next one. */
  urls: string[];
  timeoutMs: number;
  retry: RetryPolicy;
  metrics: ChainMetrics;
  signal?: AbortSignal;
}

export class TronRpcHttpError extends Error {
  override name = 'TronRpcHttpError';
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

export class TronRpcResponseError extends Error {
  override name = 'TronRpcResponseError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`JSON-RPC error ${code}: ${message}`);
  }
}

/** A 200 answer that is not the JSON-RPC shape asked for (a proxy's HTML page, a truncated body). */
export class TronRpcMalformedError extends Error {
  override name = 'TronRpcMalformedError';
}

// java-tron answers -32602 "exceed max block range: <N>" (maxBlockRange, default 5000), "exceed max addresses"
// and -32005 when a query matches more logs than it will return (JsonRpcTooManyResultException).
const RANGE_TOO_LARGE = /exceed max block range|too many|more than \d+|result size|response size/i;
const RATE_LIMITED = /rate limit|too many requests|request count|exceed.*(quota|frequency)/i;

export function classifyTronRpcError(error: unknown): RpcErrorClass {
  if (error instanceof TronRpcHttpError) {
    if (error.status === 408) return 'timeout';
    if (error.status === 429) return 'rate-limited';
    return error.status >= 500 ? 'server' : 'fatal';
  }
  if (error instanceof TronRpcResponseError) {
    if (RATE_LIMITED.test(error.message)) return 'rate-limited';
    if (RANGE_TOO_LARGE.test(error.message) || error.code === -32005) return 'range-too-large';
    return error.code === -32000 || error.code === -32603 ? 'server' : 'fatal';
  }
  if (error instanceof TronRpcMalformedError) return 'server';
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  // fetch() rejects with a TypeError when the connection fails or drops.
  if (error instanceof TypeError) return 'network';
  return 'fatal';
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
const HASH = /^(0x)?[0-9a-fA-F]{64}$/;
/** Below this a timestamp is seconds; java-tron before the seconds fix answered milliseconds (mainnet, 2022). */
const MILLISECONDS_FROM = 100_000_000_000n;

function quantity(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !HEX_QUANTITY.test(value))
    throw new TronRpcMalformedError(`${field} is not a hex quantity: ${JSON.stringify(value)}`);
  return BigInt(value);
}

/** Tron block and transaction ids are written without 0x everywhere outside this JSON-RPC facade. */
export function tronHash(value: unknown, field: string): string {
  if (typeof value !== 'string' || !HASH.test(value))
    throw new TronRpcMalformedError(`${field} is not a 32-byte hash: ${JSON.stringify(value)}`);
  return value.replace(/^0x/, '').toLowerCase();
}

function toHeader(raw: unknown): TronBlockHeader | null {
  if (raw === null) return null;
  if (typeof raw !== 'object') throw new TronRpcMalformedError('block is not an object');
  const block = raw as Record<string, unknown>;
  const timestamp = quantity(block.timestamp, 'timestamp');
  return {
    number: quantity(block.number, 'number'),
    hash: tronHash(block.hash, 'hash'),
    parentHash: tronHash(block.parentHash, 'parentHash'),
    timestamp: timestamp >= MILLISECONDS_FROM ? timestamp / 1000n : timestamp,
  };
}

const hex = (n: bigint) => `0x${n.toString(16)}`;

export function createTronRpc(options: TronRpcOptions): TronRpc {
  if (options.urls.length === 0) throw new Error('a Tron indexer needs at least one JSON-RPC URL');
  const { metrics } = options;
  const hooks = {
    classify: classifyTronRpcError,
    onAttempt: (method: string) => {
      metrics.rpcCalls[method] = (metrics.rpcCalls[method] ?? 0) + 1;
    },
    onError: (_method: string, errorClass: RpcErrorClass) => {
      metrics.rpcErrors[errorClass] += 1;
    },
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let id = 0;
  const post = async (url: string, method: string, params: unknown[]): Promise<unknown> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new TronRpcHttpError(response.status);
    let body: { result?: unknown; error?: { code?: number; message?: string } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new TronRpcMalformedError(`${method}: response is not JSON`);
    }
    if (body.error) throw new TronRpcResponseError(body.error.code ?? 0, body.error.message ?? '');
    if (!('result' in body)) throw new TronRpcMalformedError(`${method}: response has neither result nor error`);
    return body.result;
  };
  const call = (method: string, params: unknown[]) =>
    withRpcRetries(method, options.retry, hooks, (attempt) => post(options.urls[attempt % options.urls.length] as string, method, params));

  return {
    chainId: async () => Number(quantity(await call('eth_chainId', []), 'chainId')),
    blockNumber: async () => quantity(await call('eth_blockNumber', []), 'blockNumber'),
    block: async (number) => toHeader(await call('eth_getBlockByNumber', [hex(number), false])),
    logs: async (contracts, topic0, fromBlock, toBlock) => {
      const result = await call('eth_getLogs', [
        { fromBlock: hex(fromBlock), toBlock: hex(toBlock), address: [...contracts], topics: [topic0] },
      ]);
      if (!Array.isArray(result)) throw new TronRpcMalformedError('eth_getLogs result is not an array');
      return result as RawTronLog[];
    },
  };
}
