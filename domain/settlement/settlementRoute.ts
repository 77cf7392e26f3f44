// Which way a payment is settled; workflows/settlePayment.ts runs the route. The Solana USDC treasury pays a merchant
// only for money verified on a chain: in test mode for every pair (a signer without a test treasury falls back to the
// simulated route), in live mode only for the pairs the operator listed in SETTLEMENT_LIVE_ROUTES, the ones whose
// deposits refill that treasury. A bank transfer is an operator's claim and a simulated receipt (POST …/simulate) no
// money at all: neither is a chain fact, so neither ever draws on the treasury. A bank transfer is already in the
// merchant's own account: it settles with provider `bank`, in both modes, and moves nothing (docs/settlement.md#routes).
import { CHAINS, TOKENS, type Chain, type TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';

/** The settlements row's provider for a treasury payout. */
export const TREASURY_PROVIDER = 'solana-treasury';
/** The settlements row's provider for the simulated route: test mode, no funds moved. */
export const SIMULATED_PROVIDER = 'simulated';
/** The settlements row's provider for money the merchant received by bank transfer: nothing moves, nothing is paid out. */
export const BANK_PROVIDER = 'bank';

export type SettlementRoute = 'treasury' | 'simulated' | 'unavailable';

export interface LiveRoute {
  token: TokenSymbol;
  chain: Chain;
}

export const DEFAULT_LIVE_ROUTES = 'USDC:solana';

/** `TOKEN:chain` pairs, comma-separated; throws naming the first entry that is not one. */
export function parseLiveRoutes(text: string): LiveRoute[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const [token, chain, ...rest] = entry.split(':');
    if (rest.length > 0 || !TOKENS.includes(token as TokenSymbol) || !CHAINS.includes(chain as Chain)) {
      throw new Error(`"${entry}" is not a TOKEN:chain pair (tokens: ${TOKENS.join(', ')}; chains: ${CHAINS.join(', ')})`);
    }
    return { token: token as TokenSymbol, chain: chain as Chain };
  });
}

export interface RouteRequest {
  mode: Mode;
  chain: Chain;
  token: TokenSymbol;
  /** What backs the crypto part: chain deposits, or a simulated receipt (a bank part has no route: it is held). */
  backing: 'chain' | 'simulated';
}

export function settlementRoute(request: RouteRequest, liveRoutes: readonly LiveRoute[]): SettlementRoute {
  if (request.mode === 'test') return request.backing === 'chain' ? 'treasury' : 'simulated';
  if (request.backing === 'simulated') return 'unavailable';
  return liveRoutes.some((route) => route.chain === request.chain && route.token === request.token) ? 'treasury' : 'unavailable';
}
