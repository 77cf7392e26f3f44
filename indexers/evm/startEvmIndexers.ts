// Assembles and runs an EVM indexer for every configured chain/network of the registry: a deployment with RPC
// URLs and at least one token contract. Used by bin/indexer.ts and by the tests.
import type { ChainDeployment, ChainRegistry } from '../../domain/chains/chainRegistry';
import {
  assembleIndexer,
  indexedDeployments,
  type BuildIndexerDeps,
  type FamilyAssembly,
  type StartIndexersDeps,
} from '../core/assembleIndexer';
import type { ChainIndexer } from '../core/chainIndexer';
import { runIndexers, type RunningIndexers } from '../core/runIndexers';
import { createEvmChainReader } from './evmChainReader';
import { createEvmRpc } from './evmRpc';
import { subscribeToNewHeads } from './newHeadsSubscription';

const RESUBSCRIBE_MS = 5_000;

export function indexedEvmDeployments(registry: ChainRegistry): ChainDeployment[] {
  return indexedDeployments(registry, 'evm');
}

/** What the EVM family adds to the shared assembly: its reader, lowercase address keys, newHeads where configured. */
export function evmAssembly(deployment: ChainDeployment): FamilyAssembly {
  return {
    normalize: (address) => address.toLowerCase(),
    reader: ({ rpc, metrics, logger, tuning }) =>
      createEvmChainReader({ deployment, rpc: createEvmRpc(rpc), metrics, logger, maxLogRange: tuning.maxLogRange }),
    heads: ({ key, metrics, logger, tuning }) =>
      deployment.wsUrls.length === 0
        ? undefined
        : subscribeToNewHeads({
            key,
            urls: deployment.wsUrls,
            timeoutMs: tuning.rpcTimeoutMs,
            reconnectMs: RESUBSCRIBE_MS,
            metrics,
            logger,
          }),
  };
}

export function buildEvmIndexer(deployment: ChainDeployment, deps: BuildIndexerDeps): ChainIndexer {
  return assembleIndexer(deployment, deps, evmAssembly(deployment));
}

export function startEvmIndexers(deps: StartIndexersDeps): Promise<RunningIndexers> {
  return runIndexers(deps, indexedEvmDeployments(deps.registry), (deployment, shared) =>
    buildEvmIndexer(deployment, { ...deps, ...shared }),
  );
}
