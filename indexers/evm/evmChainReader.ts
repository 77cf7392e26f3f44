// The EVM family's side of the indexer loop (core/chainIndexer.ts), one code path for ethereum, polygon,
// arbitrum, optimism, base and bsc: headers and the USDC/USDT Transfer logs of a range through viem.
import type { Logger } from 'pino';
import type { Hash } from 'viem';
import type { ChainDeployment } from '../../domain/chains/chainRegistry';
import type { ChainReader } from '../core/chainReader';
import { createLogChainReader } from '../core/logChainReader';
import type { ChainMetrics } from '../core/metrics';
import type { EvmRpc } from './evmRpc';
import { scanTransfers } from './scanTransfers';

export interface EvmChainReaderDeps {
  deployment: ChainDeployment;
  rpc: EvmRpc;
  metrics: ChainMetrics;
  logger: Logger;
  maxLogRange: number;
}

export function createEvmChainReader({ deployment, rpc, metrics, logger, maxLogRange }: EvmChainReaderDeps): ChainReader {
  return createLogChainReader({
    key: { chain: deployment.chain, network: deployment.network },
    node: rpc,
    transfers: (from, to, blockHash) => scanTransfers(rpc, deployment.tokens, from, to, blockHash as Hash | undefined),
    expectedChainId: deployment.chainId,
    formatChainId: String,
    maxRange: maxLogRange,
    metrics,
    logger,
    onParentMismatch: 'continue',
    byBlockHash: true,
  });
}
