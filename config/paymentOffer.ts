// The facts besides the chain registry that decide which pairs are offered (domain/session/payablePairs.ts), from the
// configuration validated at start: SETTLEMENT_LIVE_ROUTES and the chains with RPC_URLS_<CHAIN>_<NETWORK> (those an
// indexer watches). In production a live route the deployment cannot honour refuses the start, naming the variable
// to set; elsewhere (npm start, tests, which have no mainnet endpoints) the pair is simply not offered.
import type { ChainDeployment, ChainRegistry } from '../domain/chains/chainRegistry';
import { indexedChains } from '../domain/chains/indexedChains';
import type { PaymentOffer } from '../domain/session/payablePairs';
import { uncoveredLiveRoutes, type UncoveredLiveRoute } from '../domain/settlement/liveRouteCoverage';
import { envSuffix } from './chains';
import { ConfigError, type Config } from './env';

function problem({ route, missing }: UncoveredLiveRoute): string {
  const pair = `${route.token}:${route.chain}`;
  const suffix = envSuffix(route.chain, 'mainnet');
  const remedy =
    missing === 'indexer'
      ? `no indexer watches ${route.chain} on mainnet: set RPC_URLS_${suffix}`
      : `${route.token} has no mainnet contract on ${route.chain}: set TOKEN_${route.token}_${suffix} (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)`;
  return `SETTLEMENT_LIVE_ROUTES: lists ${pair}, but ${remedy}, or remove ${pair} from SETTLEMENT_LIVE_ROUTES`;
}

/**
 * The offer of a process that reads `registry`; `deployments` are those indexed for it (every deployment of the
 * registry with an RPC URL, unless the process runs only some families' indexers itself, as npm start does).
 */
export function paymentOfferFromConfig(
  config: Pick<Config, 'appEnv' | 'settlementLiveRoutes'>,
  registry: ChainRegistry,
  deployments: readonly ChainDeployment[] = registry.all(),
): PaymentOffer {
  const indexed = indexedChains(deployments);
  const uncovered = uncoveredLiveRoutes(registry, indexed.mainnet, config.settlementLiveRoutes);
  if (config.appEnv === 'production' && uncovered.length > 0) {
    throw new ConfigError(`invalid configuration: ${uncovered.map(problem).join('; ')}`);
  }
  return { liveRoutes: config.settlementLiveRoutes, indexed };
}
