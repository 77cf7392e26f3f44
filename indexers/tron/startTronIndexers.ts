// Assembles and runs a Tron indexer for every configured Tron network of the registry (RPC URLs and at least
// one token contract). Used by bin/indexer.ts and by the tests.
import type { Logger } from 'pino';
import type { IndexerTuning } from '../../config/chains';
import type { Sql } from '../../db/client';
import type { ChainDeployment, ChainRegistry } from '../../domain/chainRegistry';
import type { IndexerMetrics } from '../core/metrics';
import type { SignalSender } from '../core/signalSender';
import { WatchSet } from '../core/watchSet';
import { runIndexers, type RunningIndexers } from '../core/runIndexers';
import { TronIndexer } from './tronIndexer';
import { createTronRpc } from './tronRpc';

export interface StartTronIndexersDeps {
  sql: Sql;
  registry: ChainRegistry;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
}

export interface BuildTronIndexerDeps {
  sql: Sql;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
  metrics: IndexerMetrics;
  signal?: AbortSignal;
}

const MAX_BACKOFF_MS = 5_000;
const MIN_POLL_MS = 250;

export function indexedTronDeployments(registry: ChainRegistry): ChainDeployment[] {
  return registry.all().filter((d) => d.family === 'tron' && d.rpcUrls.length > 0 && d.tokens.length > 0);
}

export function buildTronIndexer(deployment: ChainDeployment, deps: BuildTronIndexerDeps): TronIndexer {
  const { sql, tuning } = deps;
  const key = { chain: deployment.chain, network: deployment.network };
  const metrics = deps.metrics.forChain(deployment.chain, deployment.network);
  const rpc = createTronRpc({
    urls: deployment.rpcUrls,
    timeoutMs: tuning.rpcTimeoutMs,
    retry: { attempts: tuning.rpcAttempts, backoffMs: tuning.rpcBackoffMs, maxBackoffMs: MAX_BACKOFF_MS },
    metrics,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // Base58check is case-sensitive and has one spelling per account: addresses compare as stored.
  const watches = new WatchSet(sql, key, {
    reloadMs: tuning.watchReloadMs,
    graceMs: tuning.watchGraceHours * 3_600_000,
    normalize: (address) => address,
  });
  const pollIntervalMs = tuning.pollIntervalMs ?? Math.max(deployment.blockTimeMs, MIN_POLL_MS);
  return new TronIndexer({ sql, deployment, rpc, watches, sender: deps.sender, metrics, logger: deps.logger, maxLogRange: tuning.maxLogRange, pollIntervalMs });
}

export function startTronIndexers(deps: StartTronIndexersDeps): Promise<RunningIndexers> {
  return runIndexers(deps, indexedTronDeployments(deps.registry), (deployment, shared) => buildTronIndexer(deployment, { ...deps, ...shared }));
}
