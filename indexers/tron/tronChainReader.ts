// Tron's side of the indexer loop (core/chainIndexer.ts): the same log-based reader as EVM over java-tron's
// JSON-RPC facade, with base58 addresses (converted in scanTransfers.ts) and genesis-derived chain ids.
import type { Logger } from 'pino';
import type { ChainDeployment } from '../../domain/chains/chainRegistry';
import type { Network } from '../../domain/chains/tokenContracts';
import type { ChainReader } from '../core/chainReader';
import { createLogChainReader } from '../core/logChainReader';
import type { ChainMetrics } from '../core/metrics';
import { scanTransfers } from './scanTransfers';
import type { TronRpc } from './tronRpc';

/**
 * What java-tron's eth_chainId answers: the last 4 bytes of the genesis block id (mainnet 0x2b6653dc, Nile
 * 0xcd8690dc, per the java-tron JSON-RPC reference). The registry leaves Tron's chain id undefined because
 * docs/api.md#chains-and-tokens gives none; CHAIN_ID_TRON_<NETWORK> still overrides these.
 */
const TRON_CHAIN_IDS: Record<Network, number> = { mainnet: 0x2b6653dc, testnet: 0xcd8690dc };

export interface TronChainReaderDeps {
  deployment: ChainDeployment;
  rpc: TronRpc;
  metrics: ChainMetrics;
  logger: Logger;
  maxLogRange: number;
}

export function createTronChainReader({ deployment, rpc, metrics, logger, maxLogRange }: TronChainReaderDeps): ChainReader {
  return createLogChainReader({
    key: { chain: deployment.chain, network: deployment.network },
    node: rpc,
    transfers: (from, to) => scanTransfers(rpc, deployment.tokens, from, to),
    expectedChainId: deployment.chainId ?? TRON_CHAIN_IDS[deployment.network],
    formatChainId: (id) => `0x${id.toString(16)}`,
    maxRange: maxLogRange,
    metrics,
    logger,
    // Public gateways balance requests across nodes that may sit on different forks for a moment.
    onParentMismatch: 'reread',
    // java-tron accepts blockHash filters too, but no TronGrid answer to one is recorded to test against here.
    byBlockHash: false,
  });
}
