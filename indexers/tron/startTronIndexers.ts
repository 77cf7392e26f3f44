// Assembles and runs a Tron indexer for every configured Tron network of the registry (RPC URLs and at least
// one token contract). Used by bin/indexer.ts and by the tests.
import type { Logger } from 'pino';
import type { IndexerTuning } from '../../config/chains';
import type { Sql } from '../../db/client';
import type { ChainDeployment, ChainRegistry } from '../../domain/chainRegistry';
import { acquireChainLock } from '../core/chainLock';
import { IndexerMetrics } from '../core/metrics';
import type { SignalSender } from '../core/signalSender';
import { listenForWatchChanges, WatchSet } from '../core/watchSet';
import type { RunningIndexers } from '../evm/startEvmIndexers';
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

export async function startTronIndexers(deps: StartTronIndexersDeps): Promise<RunningIndexers> {
  const { sql, logger } = deps;
  const deployments = indexedTronDeployments(deps.registry);
  const abort = new AbortController();
  const metrics = new IndexerMetrics();
  const indexers = deployments.map((deployment) => buildTronIndexer(deployment, { ...deps, metrics, signal: abort.signal }));
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
