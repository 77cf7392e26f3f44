// The facts of domain/settlement/pairRoutes.ts for one mode, read from the configuration validated at start: token
// contracts and RPC URLs from the chain registry, the indexed chains, the collectors, deposit contracts and CCTP
// attestation service, the swap router and quoter, and the inventory caps and rebalancing addresses.
import type { ChainRegistry } from '../domain/chains/chainRegistry';
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../domain/chains/chains';
import type { Network } from '../domain/chains/tokenContracts';
import { isCctpSourceChain } from '../domain/cctp/domains';
import { isHeldInventoryChain } from '../domain/inventory/inventoryCaps';
import { networkForMode } from '../domain/session/payablePairs';
import type { PairRouteFacts } from '../domain/settlement/pairRoutes';
import type { Mode } from '../domain/wire/session';
import type { Config } from './env';

export type RouteConfig = Pick<
  Config,
  'depositCollectors' | 'tronDepositCollectors' | 'depositForwarders' | 'cctpAttestationUrl' | 'swaps' | 'inventory'
>;

/** A function of (token, chain) giving that pair's facts in `mode`. */
export function pairRouteFactsFromConfig(
  config: RouteConfig,
  registry: ChainRegistry,
  indexed: Record<Network, readonly Chain[]>,
  mode: Mode,
): (token: TokenSymbol, chain: Chain) => PairRouteFacts {
  const network = networkForMode(mode);
  return (token, chain) => {
    const tron = CHAIN_FACTS[chain].family === 'tron';
    const forwarders = config.depositForwarders[mode];
    const rebalanceAddress = isHeldInventoryChain(chain) ? config.inventory.rebalanceAddresses[mode][chain] : undefined;
    const cap = config.inventory.caps.get(`${token}:${chain}`);
    return {
      contract: registry.token(chain, network, token) !== undefined,
      usdcContract: registry.token(chain, network, 'USDC') !== undefined,
      indexed: indexed[network].includes(chain),
      rpcUrls: registry.get(chain, network).rpcUrls,
      collector: (tron ? config.tronDepositCollectors : config.depositCollectors)[mode],
      depositFactory: (tron ? forwarders.tron : forwarders.evm) !== undefined,
      cctpAttestationUrl: config.cctpAttestationUrl,
      cctpContracts: isCctpSourceChain(chain),
      swap: isCctpSourceChain(chain) ? config.swaps.contracts[network][chain] : undefined,
      inventory: { cap: cap === undefined ? undefined : Number(cap), ...(rebalanceAddress ? { rebalanceAddress } : {}) },
    };
  };
}
