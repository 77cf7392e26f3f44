// The Solana JSON-RPC calls the indexer makes, through @solana/kit, each with its own timeout and the classified
// retries of core/rpcRetry. Every read uses `confirmed` commitment: getBlock refuses `processed`, and `finalized`
// would hold every detection back by ~32 slots (see indexers/README.md for how depth is counted instead).
import {
  createSolanaRpc,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__INTERNAL_ERROR,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_STATUS_NOT_AVAILABLE_YET,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_LONG_TERM_STORAGE_SLOT_SKIPPED,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_LONG_TERM_STORAGE_UNREACHABLE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_MIN_CONTEXT_SLOT_NOT_REACHED,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import type { ChainMetrics } from '../core/metrics';
import { withRpcRetries, type RetryPolicy, type RpcErrorClass } from '../core/rpcRetry';

/** One token balance of a transaction's meta, as the node reports it (pre or post). */
export interface TokenBalanceEntry {
  accountIndex: number;
  mint: string;
  owner: string | undefined;
  /** Base units as the node's decimal string: never a JS number. */
  amount: string;
}

export interface BlockTransaction {
  signature: string;
  /** The fee payer: the first account of the message. */
  feePayer: string;
  /** The message's accounts in order: a token balance's accountIndex names its token account here. */
  accounts: readonly string[];
  failed: boolean;
  preTokenBalances: readonly TokenBalanceEntry[];
  postTokenBalances: readonly TokenBalanceEntry[];
}

export interface SolanaBlock {
  slot: bigint;
  blockhash: string;
  parentSlot: bigint;
  previousBlockhash: string;
  /** Unix seconds; null where the node has no estimate. */
  blockTime: bigint | null;
  transactions: readonly BlockTransaction[];
}

/** What the node has at a slot: a block, nothing because the slot was skipped, or no answer yet. */
export type SlotContent<T> = { kind: 'block'; block: T } | { kind: 'skipped' } | { kind: 'unavailable' };

export interface SolanaRpc {
  genesisHash(): Promise<string>;
  /** The newest slot at `confirmed` commitment. */
  slot(): Promise<bigint>;
  /** The block with every transaction's signatures, accounts and token balances. */
  block(slot: bigint): Promise<SlotContent<SolanaBlock>>;
  /** The blockhash only (transactionDetails 'none'): the cheap canonical check. */
  blockhash(slot: bigint): Promise<SlotContent<string>>;
}

export interface SolanaRpcOptions {
  urls: string[];
  timeoutMs: number;
  retry: RetryPolicy;
  metrics: ChainMetrics;
  signal?: AbortSignal;
}

const SERVER_CODES: readonly number[] = [
  SOLANA_ERROR__JSON_RPC__INTERNAL_ERROR,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_MIN_CONTEXT_SLOT_NOT_REACHED,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_LONG_TERM_STORAGE_UNREACHABLE,
];

export function classifySolanaRpcError(error: unknown): RpcErrorClass {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (isSolanaError(e, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
      const status = e.context.statusCode;
      if (status === 408) return 'timeout';
      if (status === 429) return 'rate-limited';
      return status >= 500 ? 'server' : 'fatal';
    }
    if (isSolanaError(e) && SERVER_CODES.includes(e.context.__code)) return 'server';
    if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) return 'timeout';
    if (e instanceof Error && e.name === 'TypeError') return 'network';
  }
  return 'fatal';
}

/** Skipped: -32007 from a node's own ledger, -32009 from long-term storage. Not available: not yet confirmed. */
function slotGap(error: unknown): SlotContent<never> | undefined {
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED)) return { kind: 'skipped' };
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_LONG_TERM_STORAGE_SLOT_SKIPPED)) return { kind: 'skipped' };
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE)) return { kind: 'unavailable' };
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_STATUS_NOT_AVAILABLE_YET)) return { kind: 'unavailable' };
  return undefined;
}

interface RawTokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

const toEntries = (balances: readonly RawTokenBalance[] | undefined): TokenBalanceEntry[] =>
  (balances ?? []).map((b) => ({ accountIndex: b.accountIndex, mint: b.mint, owner: b.owner, amount: b.uiTokenAmount.amount }));

export function createSolanaRpcClient(options: SolanaRpcOptions): SolanaRpc {
  if (options.urls.length === 0) throw new Error('a Solana indexer needs at least one RPC URL');
  const clients: Rpc<SolanaRpcApi>[] = options.urls.map((url) => createSolanaRpc(url));
  const { metrics } = options;
  const hooks = {
    classify: classifySolanaRpcError,
    onAttempt: (method: string) => {
      metrics.rpcCalls[method] = (metrics.rpcCalls[method] ?? 0) + 1;
    },
    onError: (_method: string, errorClass: RpcErrorClass) => {
      metrics.rpcErrors[errorClass] += 1;
    },
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const abortSignal = () => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    return options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  };
  // A retry goes to the next endpoint: a rate-limited or failing provider is the likeliest cause.
  const call = <T>(method: string, run: (client: Rpc<SolanaRpcApi>, signal: AbortSignal) => Promise<T>) =>
    withRpcRetries(method, options.retry, hooks, (attempt) => run(clients[attempt % clients.length] as Rpc<SolanaRpcApi>, abortSignal()));
  // A skipped or not yet available slot is an answer, not a failure: it is returned, never retried.
  const atSlot = async <T>(run: () => Promise<T | null>): Promise<SlotContent<T>> => {
    try {
      const value = await run();
      return value === null ? { kind: 'unavailable' } : { kind: 'block', block: value };
    } catch (error) {
      const gap = slotGap(error);
      if (gap) return gap;
      throw error;
    }
  };

  return {
    genesisHash: () => call('getGenesisHash', (rpc, signal) => rpc.getGenesisHash().send({ abortSignal: signal })),
    slot: () => call('getSlot', (rpc, signal) => rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal: signal })),
    block: (slot) =>
      call('getBlock', (rpc, signal) =>
        atSlot(async () => {
          const block = await rpc
            .getBlock(slot, {
              commitment: 'confirmed',
              encoding: 'json',
              maxSupportedTransactionVersion: 0,
              rewards: false,
              transactionDetails: 'accounts',
            })
            .send({ abortSignal: signal });
          if (!block) return null;
          return {
            slot,
            blockhash: block.blockhash,
            parentSlot: block.parentSlot,
            previousBlockhash: block.previousBlockhash,
            blockTime: block.blockTime ?? null,
            transactions: block.transactions.map((tx) => ({
              signature: tx.transaction.signatures[0] ?? '',
              feePayer: tx.transaction.accountKeys[0]?.pubkey ?? '',
              accounts: tx.transaction.accountKeys.map((key) => key.pubkey),
              failed: tx.meta === null || tx.meta.err !== null,
              preTokenBalances: toEntries(tx.meta?.preTokenBalances),
              postTokenBalances: toEntries(tx.meta?.postTokenBalances),
            })),
          };
        }),
      ),
    blockhash: (slot) =>
      call('getBlock', (rpc, signal) =>
        atSlot(async () => {
          const block = await rpc
            .getBlock(slot, { commitment: 'confirmed', rewards: false, transactionDetails: 'none' })
            .send({ abortSignal: signal });
          return block?.blockhash ?? null;
        }),
      ),
  };
}
