// A live settlement route the deployment cannot honour: SETTLEMENT_LIVE_ROUTES lists a pair whose mainnet has no
// token contract, or whose chain no indexer watches on mainnet. Such a pair is never offered (payablePairs); a
// production configuration listing one refuses to start (config/paymentOffer.ts), since the operator meant it to be paid.
import type { ChainRegistry } from '../chains/chainRegistry';
import type { Chain } from '../chains/chains';
import type { LiveRoute } from './settlementRoute';

export interface UncoveredLiveRoute {
  route: LiveRoute;
  /** `contract`: mainnet has no contract for the token on the chain; `indexer`: no indexer watches the chain on mainnet. */
  missing: 'contract' | 'indexer';
}

/** The routes of `liveRoutes` a live session could not be paid in, in their order, each with what it lacks first. */
export function uncoveredLiveRoutes(
  registry: ChainRegistry,
  indexedMainnet: readonly Chain[],
  liveRoutes: readonly LiveRoute[],
): UncoveredLiveRoute[] {
  return liveRoutes.flatMap((route): UncoveredLiveRoute[] => {
    if (registry.token(route.chain, 'mainnet', route.token) === undefined) return [{ route, missing: 'contract' }];
    if (!indexedMainnet.includes(route.chain)) return [{ route, missing: 'indexer' }];
    return [];
  });
}
