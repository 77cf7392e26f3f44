// Assembles and runs a Solana indexer for every configured network of the registry: RPC URLs and at least one
// mint. Used by bin/indexer.ts and by the tests.
import type { Logger } from 'pino';
import type { IndexerTuning } from '../../config/chains';
import type { Sql } from '../../db/client';
import type { ChainDeployment, ChainRegistry } from '../../domain/chainRegistry';
import type { IndexerMetrics } from '../core/metrics';
import type { SignalSender } from '../core/signalSender';
import { WatchSet } from '../core/watchSet';
import { runIndexers, type RunningIndexers } from '../core/runIndexers';
import { createSolanaRpcClient } from './solanaRpc';
import { SolanaIndexer } from './solanaIndexer';

const MAX_BACKOFF_MS = 5_000;
const MIN_POLL_MS = 250;
/**
 * A getBlock answer of a busy mainnet slot is megabytes of JSON even without instructions and logs; a range of
 * 16 slots keeps one tick's memory bounded and is still ~6 s of chain, so catching up is never starved.
 */
const MAX_SLOTS_PER_RANGE = 16;
const FETCH_CONCURRENCY = 4;

export function indexedSolanaDeployments(registry: ChainRegistry): ChainDeployment[] {
  return registry.all().filter((d) => d.family === 'solana' && d.rpcUrls.length > 0 && d.tokens.length > 0);
}

export interface BuildSolanaIndexerDeps {
  sql: Sql;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
  metrics: IndexerMetrics;
  signal?: AbortSignal;
}

export function buildSolanaIndexer(deployment: ChainDeployment, deps: BuildSolanaIndexerDeps): SolanaIndexer {
  const { sql, tuning } = deps;
  const key = { chain: deployment.chain, network: deployment.network };
  const metrics = deps.metrics.forChain(deployment.chain, deployment.network);
  const rpc = createSolanaRpcClient({
    urls: deployment.rpcUrls,
    timeoutMs: tuning.rpcTimeoutMs,
    retry: { attempts: tuning.rpcAttempts, backoffMs: tuning.rpcBackoffMs, maxBackoffMs: MAX_BACKOFF_MS },
    metrics,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // Base58 is case-sensitive and isSolanaAddress admits only the canonical spelling: compare as stored.
  const watches = new WatchSet(sql, key, { reloadMs: tuning.watchReloadMs, graceMs: tuning.watchGraceHours * 3_600_000, normalize: (address) => address });
  const pollIntervalMs = tuning.pollIntervalMs ?? Math.max(deployment.blockTimeMs, MIN_POLL_MS);
  return new SolanaIndexer({
    sql,
    deployment,
    rpc,
    watches,
    sender: deps.sender,
    metrics,
    logger: deps.logger,
    maxSlotsPerRange: Math.min(tuning.maxLogRange, MAX_SLOTS_PER_RANGE),
    fetchConcurrency: FETCH_CONCURRENCY,
    pollIntervalMs,
  });
}

export interface StartSolanaIndexersDeps {
  sql: Sql;
  registry: ChainRegistry;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
}

export function startSolanaIndexers(deps: StartSolanaIndexersDeps): Promise<RunningIndexers> {
  return runIndexers(deps, indexedSolanaDeployments(deps.registry), (deployment, shared) => buildSolanaIndexer(deployment, { ...deps, ...shared }));
}
