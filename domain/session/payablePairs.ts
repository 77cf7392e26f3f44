// Which token/chain pairs a session can actually be paid in (docs/api.md#tokens-quotes-and-payment-selection): those
// whose deposits this deployment both sees and settles. The one rule behind supported_tokens (at creation, in GET
// /checkout/sessions/{id}, on the hosted page), select-payment's check and GET /checkout/tokens' `payable`, so a pair
// is never offered and then refused, nor paid and then never detected or never settled.
import type { ChainRegistry } from '../chains/chainRegistry';
import { CHAINS, TOKENS, type Chain, type TokenChainPairs, type TokenSymbol } from '../chains/chains';
import type { Network } from '../chains/tokenContracts';
import { settlementRoute, type LiveRoute } from '../settlement/settlementRoute';
import type { Mode } from '../wire/session';

export const networkForMode = (mode: Mode): Network => (mode === 'live' ? 'mainnet' : 'testnet');

/** What decides the pairs offered besides the registry's contracts, read from the configuration at start. */
export interface PaymentOffer {
  /** The live pairs the treasury settles: those of SETTLEMENT_LIVE_ROUTES whose route lacks nothing (config/paymentOffer.ts). */
  liveRoutes: readonly LiveRoute[];
  /** Per network, the chains an indexer watches (an RPC URL configured): a deposit elsewhere is never detected. */
  indexed: Record<Network, readonly Chain[]>;
  /**
   * Per mode, the held pairs at their inventory cap when the offer is made (api/inventoryCapGate.ts): offered to no new
   * session. Only a new session's offer and GET /checkout/tokens carry it, so a session offered a pair keeps it.
   */
  atCap?: Partial<Record<Mode, readonly LiveRoute[]>>;
}

/**
 * Whether `mode`'s sessions can be paid in `token` on `chain`: the network has its contract, an indexer watches the
 * chain on that network, and a chain deposit of the pair has a settlement route (every pair in test mode, the
 * SETTLEMENT_LIVE_ROUTES pairs in live mode), and it is not at its inventory cap (offer.atCap).
 */
export function isPayable(registry: ChainRegistry, offer: PaymentOffer, mode: Mode, token: TokenSymbol, chain: Chain): boolean {
  const network = networkForMode(mode);
  return (
    registry.token(chain, network, token) !== undefined &&
    offer.indexed[network].includes(chain) &&
    settlementRoute({ mode, chain, token, backing: 'chain' }, offer.liveRoutes) !== 'unavailable' &&
    !(offer.atCap?.[mode] ?? []).some((capped) => capped.token === token && capped.chain === chain)
  );
}

/** The pairs of `offered` (the merchant's choice) `mode`'s sessions can be paid in (isPayable), in TOKENS and CHAINS order. */
export function payablePairs(registry: ChainRegistry, offer: PaymentOffer, mode: Mode, offered: TokenChainPairs): TokenChainPairs {
  const payable: TokenChainPairs = {};
  for (const token of TOKENS) {
    const chains = CHAINS.filter((chain) => offered[token]?.includes(chain) && isPayable(registry, offer, mode, token, chain));
    if (chains.length > 0) payable[token] = chains;
  }
  return payable;
}
