// What every chain family's builder shares: which deployments of the registry are indexed, the RPC client
// options (URLs, timeout, retries), the watched-address set, the poll interval, and the ChainIndexer itself.
// A family adds only its RPC client, its reader and how its addresses compare.
import { isIndexed } from '../../domain/chains/indexedChains';
import type { Logger } from 'pino';
import type { IndexerTuning } from '../../config/chains';
import type { Sql } from '../../db/client';
import type { ChainDeployment, ChainRegistry } from '../../domain/chains/chainRegistry';
import { ChainIndexer } from './chainIndexer';
import type { ChainReader } from './chainReader';
import type { ChainKey } from './cursor';
import type { HeadNotifications } from './headNotifications';
import type { ChainMetrics, IndexerMetrics } from './metrics';
import type { RetryPolicy } from './rpcRetry';
import type { SignalSender } from './signalSender';
import { WatchSet } from './watchSet';

export interface StartIndexersDeps {
  sql: Sql;
  registry: ChainRegistry;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
}

export interface BuildIndexerDeps {
  sql: Sql;
  tuning: IndexerTuning;
  sender: SignalSender;
  logger: Logger;
  metrics: IndexerMetrics;
  signal?: AbortSignal;
}

/** What a family's RPC client is created with. */
export interface RpcClientOptions {
  urls: string[];
  timeoutMs: number;
  retry: RetryPolicy;
  metrics: ChainMetrics;
  signal?: AbortSignal;
}

export interface IndexerParts {
  key: ChainKey;
  metrics: ChainMetrics;
  rpc: RpcClientOptions;
  pollIntervalMs: number;
  tuning: IndexerTuning;
  logger: Logger;
}

export interface FamilyAssembly {
  /** Key under which addresses compare: lowercase for EVM hex, identity for case-sensitive base58. */
  normalize(address: string): string;
  reader(parts: IndexerParts): ChainReader;
  /** A push source of new heads, where the deployment configures one. */
  heads?(parts: IndexerParts): HeadNotifications | undefined;
}

const MAX_BACKOFF_MS = 5_000;
const MIN_POLL_MS = 250;

/** Deployments with RPC URLs and at least one token: those an indexer runs for. */
export function indexedDeployments(registry: ChainRegistry, family: ChainDeployment['family']): ChainDeployment[] {
  return registry.all().filter((d) => d.family === family && isIndexed(d));
}

export function assembleIndexer(deployment: ChainDeployment, deps: BuildIndexerDeps, family: FamilyAssembly): ChainIndexer {
  const { tuning } = deps;
  const key = { chain: deployment.chain, network: deployment.network };
  const metrics = deps.metrics.forChain(deployment.chain, deployment.network);
  const parts: IndexerParts = {
    key,
    metrics,
    rpc: {
      urls: deployment.rpcUrls,
      timeoutMs: tuning.rpcTimeoutMs,
      retry: { attempts: tuning.rpcAttempts, backoffMs: tuning.rpcBackoffMs, maxBackoffMs: MAX_BACKOFF_MS },
      metrics,
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
    pollIntervalMs: tuning.pollIntervalMs ?? Math.max(deployment.blockTimeMs, MIN_POLL_MS),
    tuning,
    logger: deps.logger,
  };
  const watches = new WatchSet(deps.sql, key, {
    reloadMs: tuning.watchReloadMs,
    graceMs: tuning.watchGraceHours * 3_600_000,
    normalize: family.normalize,
  });
  const heads = family.heads?.(parts);
  return new ChainIndexer({
    sql: deps.sql,
    deployment,
    reader: family.reader(parts),
    watches,
    sender: deps.sender,
    metrics,
    logger: deps.logger,
    pollIntervalMs: parts.pollIntervalMs,
    // Polling stays as the safety net of a subscription, never faster than without one.
    ...(heads ? { heads, subscribedPollIntervalMs: Math.max(tuning.subscribedPollIntervalMs, parts.pollIntervalMs) } : {}),
  });
}
