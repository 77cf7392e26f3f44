// The signer's own readers of deposits on their chains (docs/settlement.md#paid-only-on-the-indexers-facts), one per
// chain and network, shared by payouts and refunds. The indexer asks the first of a chain's RPC URLs first; the re-read
// asks the last other one (rereadRpcUrl), which a live payment must have. Tron's indexer reads JSON-RPC; its re-read
// asks the HTTP API's solidified view.
import { envSuffix } from '../../config/chains';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { CHAIN_FACTS, type Chain } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';
import { rereadRpcUrl, type DepositReader } from '../../domain/settlement/depositBacking';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';
import { createEvmDepositReader } from './evmDepositReader';
import { createSolanaDepositReader } from './solanaDepositReader';
import { createTronDepositReader } from './tronDepositReader';

export interface DepositRereaderDeps {
  registry: ChainRegistry;
  /** Tron's HTTP API per network (TRON_HTTP_API_URL_*), which Tron deposits are re-read from. */
  tronHttpApi?: Partial<Record<Network, { fullNodeUrl: string; solidityUrl: string }>>;
  rpcTimeoutMs?: number;
}

export interface DepositRereaders {
  /** The reader of `chain`'s deposits in `mode`, or undefined when the signer has no provider to ask. */
  readerFor(chain: Chain, mode: Mode): DepositReader | undefined;
  /** What to set so that readerFor(chain, mode) has a provider. */
  missing(chain: Chain, mode: Mode): string;
}

export function createDepositRereaders(deps: DepositRereaderDeps): DepositRereaders {
  const readers = new Map<string, DepositReader>();
  const createReader = (chain: Chain, network: Network, mode: Mode): DepositReader | undefined => {
    const timeoutMs = deps.rpcTimeoutMs;
    if (CHAIN_FACTS[chain].family === 'tron') {
      const api = deps.tronHttpApi?.[network];
      return api && createTronDepositReader({ ...api, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    }
    const rpcUrl = rereadRpcUrl(mode, deps.registry.get(chain, network).rpcUrls);
    if (!rpcUrl) return undefined;
    return CHAIN_FACTS[chain].family === 'solana'
      ? createSolanaDepositReader(rpcUrl, timeoutMs)
      : createEvmDepositReader(rpcUrl, timeoutMs);
  };
  return {
    readerFor(chain, mode) {
      const network = networkForMode(mode);
      const key = `${chain}:${network}`;
      if (!readers.has(key)) {
        const reader = createReader(chain, network, mode);
        if (reader) readers.set(key, reader);
      }
      return readers.get(key);
    },
    missing(chain, mode) {
      const network = networkForMode(mode);
      if (CHAIN_FACTS[chain].family === 'tron') return `TRON_HTTP_API_URL_${network.toUpperCase()} is not set`;
      return mode === 'live'
        ? `RPC_URLS_${envSuffix(chain, network)} has no URL besides the indexer's first`
        : `RPC_URLS_${envSuffix(chain, network)} is not set`;
    },
  };
}
