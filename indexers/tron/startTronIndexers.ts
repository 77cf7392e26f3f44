// Assembles and runs a Tron indexer for every configured Tron network of the registry (RPC URLs and at least
// one token contract). Used by bin/indexer.ts and by the tests.
import type { ChainDeployment, ChainRegistry } from '../../domain/chains/chainRegistry';
import { assembleIndexer, indexedDeployments, type BuildIndexerDeps, type StartIndexersDeps } from '../core/assembleIndexer';
import type { ChainIndexer } from '../core/chainIndexer';
import { runIndexers, type RunningIndexers } from '../core/runIndexers';
import { createTronChainReader } from './tronChainReader';
import { createTronRpc } from './tronRpc';

export function indexedTronDeployments(registry: ChainRegistry): ChainDeployment[] {
  return indexedDeployments(registry, 'tron');
}

export function buildTronIndexer(deployment: ChainDeployment, deps: BuildIndexerDeps): ChainIndexer {
  return assembleIndexer(deployment, deps, {
    // Base58check is case-sensitive and has one spelling per account: addresses compare as stored.
    normalize: (address) => address,
    reader: ({ rpc, metrics, logger, tuning }) =>
      createTronChainReader({ deployment, rpc: createTronRpc(rpc), metrics, logger, maxLogRange: tuning.maxLogRange }),
  });
}

export function startTronIndexers(deps: StartIndexersDeps): Promise<RunningIndexers> {
  return runIndexers(deps, indexedTronDeployments(deps.registry), (deployment, shared) =>
    buildTronIndexer(deployment, { ...deps, ...shared }),
  );
}
