// The signer's USDT swap activities: one route per (mode, CCTP chain) the signer was configured for
// (signer/config/swapRoutes.ts). A pair without a route answers no_route and touches nothing, so the schedules
// can exist for every CCTP chain while only the configured ones swap.
import { log, metricMeter } from '@temporalio/activity';
import type { CctpSourceChain } from '../../domain/cctp/domains';
import type { Mode } from '../../domain/wire/session';
import { createUsdtSwapRoute, type SwapAnswer, type SwapStartAnswer, type UsdtSwapRoute, type UsdtSwapRouteDeps } from './usdtSwap';

export type UsdtSwapRoutes = Partial<Record<Mode, Partial<Record<CctpSourceChain, UsdtSwapRouteDeps>>>>;

type NoRoute = { status: 'no_route' };

export function createUsdtSwapActivities(routes: UsdtSwapRoutes) {
  const built = new Map<string, UsdtSwapRoute>();
  const routeOf = (mode: Mode, chain: CctpSourceChain): UsdtSwapRoute | undefined => {
    const deps = routes[mode]?.[chain];
    if (!deps) return undefined;
    const key = `${mode}:${chain}`;
    let route = built.get(key);
    if (!route) {
      route = createUsdtSwapRoute(deps);
      built.set(key, route);
    }
    return route;
  };
  const noRoute: NoRoute = { status: 'no_route' };
  return {
    async startUsdtSwap(request: { mode: Mode; chain: CctpSourceChain; runKey: string }): Promise<SwapStartAnswer | NoRoute> {
      const answer = (await routeOf(request.mode, request.chain)?.start(request.runKey)) ?? noRoute;
      // Once per scheduled run that found the pool too far from 1:1: the USDT waits in the collector.
      if (answer.status === 'waiting_price') {
        metricMeter
          .createCounter(
            'checkout_swaps_waiting_price',
            'runs',
            'USDT swaps not started: the quote is further below 1:1 than SWAP_MAX_DEVIATION_BPS',
          )
          .add(1, { mode: request.mode, chain: request.chain });
        log.warn('USDT swap waits: the pool quotes further below 1:1 than SWAP_MAX_DEVIATION_BPS; the next run asks again', {
          ...request,
          reason: answer.reason,
          deviationBps: answer.deviationBps,
        });
      }
      return answer;
    },
    async advanceUsdtSwap(ref: { mode: Mode; chain: CctpSourceChain; swapId: string }): Promise<SwapAnswer | NoRoute> {
      return (await routeOf(ref.mode, ref.chain)?.advance(ref.swapId)) ?? noRoute;
    },
  };
}
