// Runs one indexer per chain/network, whatever the chain family: each waits for its chain's advisory lock
// (one active indexer per chain and network across processes), watches refresh through one LISTEN, and
// stop() lets every tick in progress finish so its cursor is stored.
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import type { ChainDeployment } from '../../domain/chains/chainRegistry';
import { acquireChainLock } from './chainLock';
import type { ChainKey } from './cursor';
import { IndexerMetrics } from './metrics';
import { listenForWatchChanges, type WatchSet } from './watchSet';

export interface RunnableIndexer {
  readonly key: ChainKey;
  readonly watches: WatchSet;
  run(signal: AbortSignal): Promise<void>;
}

export interface RunningIndexers {
  deployments: ChainDeployment[];
  metrics: IndexerMetrics;
  /** Rejects if an indexer cannot run at all (its node reports another chain id). */
  done: Promise<void>;
  /** Lets every tick in progress finish (its cursor is then stored), stops the loops and releases the locks. */
  stop(): Promise<void>;
}

/** How often a waiting indexer retries its chain's lock. */
const LOCK_RETRY_MS = 1_000;

export async function runIndexers(
  deps: { sql: Sql; logger: Logger },
  deployments: ChainDeployment[],
  build: (deployment: ChainDeployment, shared: { metrics: IndexerMetrics; signal: AbortSignal }) => RunnableIndexer,
): Promise<RunningIndexers> {
  const abort = new AbortController();
  const metrics = new IndexerMetrics();
  const indexers = deployments.map((deployment) => build(deployment, { metrics, signal: abort.signal }));
  const listener = await listenForWatchChanges(
    deps.sql,
    indexers.map((indexer) => indexer.watches),
  );

  const runs = indexers.map(async (indexer) => {
    const lock = await acquireChainLock(deps.sql, indexer.key, abort.signal, LOCK_RETRY_MS);
    if (!lock) return;
    deps.logger.info({ chain: indexer.key.chain, network: indexer.key.network }, 'indexer running');
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
