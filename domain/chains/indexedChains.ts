// Which chains an indexer watches (indexers/README.md): a deployment with RPC endpoints configured
// (RPC_URLS_<CHAIN>_<NETWORK>) and a token contract to watch. A deposit on any other chain is never detected, so the
// chain is never offered (domain/session/payablePairs.ts).
import type { ChainDeployment } from './chainRegistry';
import type { Chain } from './chains';
import type { Network } from './tokenContracts';

export const isIndexed = (deployment: ChainDeployment): boolean => deployment.rpcUrls.length > 0 && deployment.tokens.length > 0;

/** Per network, the chains of `deployments` an indexer runs for. */
export function indexedChains(deployments: readonly ChainDeployment[]): Record<Network, Chain[]> {
  const indexed: Record<Network, Chain[]> = { testnet: [], mainnet: [] };
  for (const deployment of deployments) if (isIndexed(deployment)) indexed[deployment.network].push(deployment.chain);
  return indexed;
}
