// Assembles and runs an EVM indexer for every configured chain/network of the registry: a deployment with RPC
// URLs and at least one token contract. Used by bin/indexer.ts and by the tests.
import type { Logger } from 'pino';
import type { IndexerTuning } from '../../config/chains';
import type { Sql } from '../../db/client';
import type { ChainDeployment, ChainRegistry } from '../../domain/chainRegistry';
import type { IndexerMetrics } from '../core/metrics';
import type { SignalSender } from '../core/signalSender';
import { runIndexers, type RunningIndexers } from '../core/runIndexers';
import { WatchSet } from '../core/watchSet';
import { createEvmRpc } from './evmRpc';
import { EvmIndexer } from './evmIndexer';

export interface StartEvmIndexersDeps {
  sql: Sql;
  registry: ChainRegistry;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
}

const MAX_BACKOFF_MS = 5_000;
const MIN_POLL_MS = 250;

export function indexedEvmDeployments(registry: ChainRegistry): ChainDeployment[] {
  return registry.all().filter((d) => d.family === 'evm' && d.rpcUrls.length > 0 && d.tokens.length > 0);
}

export interface BuildEvmIndexerDeps {
  sql: Sql;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
  metrics: IndexerMetrics;
  signal?: AbortSignal;
}

export function buildEvmIndexer(deployment: ChainDeployment, deps: BuildEvmIndexerDeps): EvmIndexer {
  const { sql, tuning } = deps;
  const key = { chain: deployment.chain, network: deployment.network };
  const metrics = deps.metrics.forChain(deployment.chain, deployment.network);
  const rpc = createEvmRpc({
    urls: deployment.rpcUrls,
    timeoutMs: tuning.rpcTimeoutMs,
    retry: { attempts: tuning.rpcAttempts, backoffMs: tuning.rpcBackoffMs, maxBackoffMs: MAX_BACKOFF_MS },
    metrics,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const watches = new WatchSet(sql, key, {
    reloadMs: tuning.watchReloadMs,
    graceMs: tuning.watchGraceHours * 3_600_000,
    normalize: (address) => address.toLowerCase(),
  });
  const pollIntervalMs = tuning.pollIntervalMs ?? Math.max(deployment.blockTimeMs, MIN_POLL_MS);
  return new EvmIndexer({ sql, deployment, rpc, watches, sender: deps.sender, metrics, logger: deps.logger, maxLogRange: tuning.maxLogRange, pollIntervalMs });
}

export function startEvmIndexers(deps: StartEvmIndexersDeps): Promise<RunningIndexers> {
  return runIndexers(deps, indexedEvmDeployments(deps.registry), (deployment, shared) => buildEvmIndexer(deployment, { ...deps, ...shared }));
}
