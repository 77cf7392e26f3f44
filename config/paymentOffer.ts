// The facts besides the chain registry that decide which pairs are offered (domain/session/payablePairs.ts), from the
// configuration validated at start: SETTLEMENT_LIVE_ROUTES, the chains with RPC_URLS_<CHAIN>_<NETWORK> (those an
// indexer watches) and what each listed pair's route needs (domain/settlement/pairRoutes.ts). In production a live
// route the deployment cannot run refuses the start, naming each missing piece and the variable to set; elsewhere
// (npm start, tests, which have no mainnet endpoints) the pair is simply not offered.
import type { ChainDeployment, ChainRegistry } from '../domain/chains/chainRegistry';
import { indexedChains } from '../domain/chains/indexedChains';
import type { PaymentOffer } from '../domain/session/payablePairs';
import { pairRoute, routeGaps, type RouteGap } from '../domain/settlement/pairRoutes';
import type { LiveRoute } from '../domain/settlement/settlementRoute';
import { ConfigError, type Config } from './env';
import { pairRouteFactsFromConfig, type RouteConfig } from './pairRouteFacts';

function problem(route: LiveRoute, gaps: readonly RouteGap[]): string {
  const pair = `${route.token}:${route.chain}`;
  if (pairRoute(route.token, route.chain) === null) {
    return `SETTLEMENT_LIVE_ROUTES: lists ${pair}, but ${route.token} on ${route.chain} has no route to the Solana USDC treasury (docs/settlement.md#routes): remove ${pair} from SETTLEMENT_LIVE_ROUTES`;
  }
  const missing = gaps.map((gap) => `${gap.lacks}: set ${gap.set}`).join(', ');
  return `SETTLEMENT_LIVE_ROUTES: lists ${pair}, but ${missing}, or remove ${pair} from SETTLEMENT_LIVE_ROUTES`;
}

/**
 * The offer of a process that reads `registry`; `deployments` are those indexed for it (every deployment of the
 * registry with an RPC URL, unless the process runs only some families' indexers itself, as npm start does).
 */
export function paymentOfferFromConfig(
  config: OfferConfig,
  registry: ChainRegistry,
  deployments: readonly ChainDeployment[] = registry.all(),
): PaymentOffer {
  return paymentOfferOf(config, registry, indexedChains(deployments));
}

export type OfferConfig = Pick<Config, 'appEnv' | 'settlementLiveRoutes'> & RouteConfig;

/** The offer with the chains an indexer watches given (tests, which stand in for the indexers, say which). */
export function paymentOfferOf(config: OfferConfig, registry: ChainRegistry, indexed: PaymentOffer['indexed']): PaymentOffer {
  const factsOf = pairRouteFactsFromConfig(config, registry, indexed, 'live');
  const judged = config.settlementLiveRoutes.map((route) => ({
    route,
    gaps: routeGaps('live', route.token, route.chain, factsOf(route.token, route.chain)),
  }));
  const incomplete = judged.filter(({ gaps }) => gaps.length > 0);
  if (config.appEnv === 'production' && incomplete.length > 0) {
    throw new ConfigError(`invalid configuration: ${incomplete.map(({ route, gaps }) => problem(route, gaps)).join('; ')}`);
  }
  return { liveRoutes: judged.filter(({ gaps }) => gaps.length === 0).map(({ route }) => route), indexed };
}
