// Which token contract and EVM chain id a session pays with, and on which chains its deposit address is watched, per
// network: read from the chain registry, so select-payment shows exactly the contract and chain id the indexer watches
// (local chains included).
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import type { Network } from '../../domain/chains/tokenContracts';
import { depositWatchChains } from '../../domain/session/depositWatchChains';

export interface PaymentToken {
  address: string;
  decimals: number;
}

export interface PaymentNetwork {
  tokenContract(token: TokenSymbol, chain: Chain, network: Network): PaymentToken | null;
  /** Numeric chain id for EIP-681 links, EVM chains only. */
  evmChainId(chain: Chain, network: Network): number | undefined;
  /** The chains on which the deposit address given for `chain` is watched (domain/session/depositWatchChains.ts). */
  watchedChains(chain: Chain, network: Network): Chain[];
}

export function chainRegistryPaymentNetwork(registry: ChainRegistry): PaymentNetwork {
  return {
    tokenContract(token, chain, network) {
      const deployment = registry.token(chain, network, token);
      return deployment ? { address: deployment.address, decimals: deployment.decimals } : null;
    },
    evmChainId: (chain, network) => registry.get(chain, network).chainId,
    watchedChains: (chain, network) => depositWatchChains(chain, network, registry.all()),
  };
}
