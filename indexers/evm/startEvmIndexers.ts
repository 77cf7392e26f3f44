// Assembles and runs an EVM indexer for every configured chain/network of the registry: a deployment with RPC
// URLs and at least one token contract. Used by bin/indexer.ts and by the tests.
import type { Logger } from 'pino';
import type { IndexerTuning } from '../../config/chains';
import type { Sql } from '../../db/client';
import type { ChainDeployment, ChainRegistry } from '../../domain/chainRegistry';
import { acquireChainLock } from '../core/chainLock';
import { IndexerMetrics } from '../core/metrics';
import type { SignalSender } from '../core/signalSender';
import { listenForWatchChanges, WatchSet } from '../core/watchSet';
import { createEvmRpc } from './evmRpc';
import { EvmIndexer } from './evmIndexer';

export interface StartEvmIndexersDeps {
  sql: Sql;
  registry: ChainRegistry;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
}

export interface RunningIndexers {
  deployments: ChainDeployment[];
  metrics: IndexerMetrics;
  /** Rejects if an indexer cannot run at all (its node reports another chain id). */
  done: Promise<void>;
  /** Lets every tick in progress finish (its cursor is then stored), stops the loops and releases the locks. */
  stop(): Promise<void>;
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

export async function startEvmIndexers(deps: StartEvmIndexersDeps): Promise<RunningIndexers> {
  const { sql, logger } = deps;
  const deployments = indexedEvmDeployments(deps.registry);
  const abort = new AbortController();
  const metrics = new IndexerMetrics();
  const indexers = deployments.map((deployment) => buildEvmIndexer(deployment, { ...deps, metrics, signal: abort.signal }));
  const listener = await listenForWatchChanges(sql, indexers.map((indexer) => indexer.watches));

  const runs = indexers.map(async (indexer) => {
    const lock = await acquireChainLock(sql, indexer.key, abort.signal, MIN_POLL_MS * 4);
    if (!lock) return;
    logger.info({ chain: indexer.key.chain, network: indexer.key.network }, 'indexer running');
    try {
      await indexer.run(abort.signal);
    } finally {
      await lock.release();
    }
  });
  const done = Promise.all(runs).then(() => undefined);
  // A failed indexer surfaces through `done`; stop() waits for the others regardless.
  done.catch(() => undefined);
  return {
    deployments,
    metrics,
    done,
    async stop() {
      abort.abort();
      await Promise.allSettled(runs);
      await listener.unlisten();
    },
  };
}
