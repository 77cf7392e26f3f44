// Assembles and runs a Solana indexer for every configured network of the registry: RPC URLs and at least one
// mint. Used by bin/indexer.ts and by the tests.
import type { ChainDeployment, ChainRegistry } from '../../domain/chains/chainRegistry';
import { assembleIndexer, indexedDeployments, type BuildIndexerDeps, type StartIndexersDeps } from '../core/assembleIndexer';
import type { ChainIndexer } from '../core/chainIndexer';
import { runIndexers, type RunningIndexers } from '../core/runIndexers';
import { createSolanaChainReader } from './solanaChainReader';
import { createSolanaRpcClient } from './solanaRpc';

/**
 * A getBlock answer of a busy mainnet slot is megabytes of JSON even without instructions and logs; a range of
 * 16 slots keeps one tick's memory bounded and is still ~6 s of chain, so catching up is never starved.
 */
const MAX_SLOTS_PER_RANGE = 16;
const FETCH_CONCURRENCY = 4;

export function indexedSolanaDeployments(registry: ChainRegistry): ChainDeployment[] {
  return indexedDeployments(registry, 'solana');
}

export function buildSolanaIndexer(deployment: ChainDeployment, deps: BuildIndexerDeps): ChainIndexer {
  return assembleIndexer(deployment, deps, {
    // Base58 is case-sensitive and isSolanaAddress admits only the canonical spelling: compare as stored.
    normalize: (address) => address,
    reader: ({ rpc, metrics, logger, tuning }) =>
      createSolanaChainReader({
        deployment,
        rpc: createSolanaRpcClient(rpc),
        metrics,
        logger,
        maxSlotsPerRange: Math.min(tuning.maxLogRange, MAX_SLOTS_PER_RANGE),
        fetchConcurrency: FETCH_CONCURRENCY,
      }),
  });
}

export function startSolanaIndexers(deps: StartIndexersDeps): Promise<RunningIndexers> {
  return runIndexers(deps, indexedSolanaDeployments(deps.registry), (deployment, shared) =>
    buildSolanaIndexer(deployment, { ...deps, ...shared }),
  );
}
