// How each TOKEN:chain pair's money comes back to the Solana USDC treasury that pays merchants
// (docs/settlement.md#routes), and what a deployment lacks to run that route: a pair is offered in live mode only when
// its route lacks nothing, and a production start listing one that lacks something refuses, naming what to set.
import { CHAIN_FACTS, CHAINS, TOKENS, type Chain, type TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';
import { rereadRpcUrl } from './depositBacking';
import type { LiveRoute } from './settlementRoute';

/**
 * `treasury`: the treasury's own USDC. `cctp`: swept into the chain's DepositCollector and burned to the treasury by
 * CCTP V2. `swap+cctp`: swept, swapped to USDC in the collector, then as `cctp`. `hold`: swept and held in the
 * collector as inventory, withdrawn by an operator to a rebalancing address.
 */
export type PairRouteKind = 'treasury' | 'cctp' | 'swap+cctp' | 'hold';

/** null: no route, as the pair has no mainnet contract the service accepts (domain/chains/tokenContracts.ts). */
export const PAIR_ROUTES: Record<TokenSymbol, Record<Chain, PairRouteKind | null>> = {
  USDC: {
    ethereum: 'cctp',
    polygon: 'cctp',
    arbitrum: 'cctp',
    optimism: 'cctp',
    base: 'cctp',
    // Binance-Peg USDC: no CCTP on bsc.
    bsc: 'hold',
    solana: 'treasury',
    // Circle ended USDC on TRON.
    tron: null,
  },
  USDT: {
    ethereum: 'swap+cctp',
    polygon: 'swap+cctp',
    arbitrum: 'swap+cctp',
    optimism: 'swap+cctp',
    base: 'swap+cctp',
    bsc: 'hold',
    solana: 'hold',
    tron: 'hold',
  },
};

export const pairRoute = (token: TokenSymbol, chain: Chain): PairRouteKind | null => PAIR_ROUTES[token][chain];

/** The 16 pairs in TOKENS and CHAINS order. */
export const ALL_PAIRS: readonly { token: TokenSymbol; chain: Chain }[] = TOKENS.flatMap((token) =>
  CHAINS.map((chain) => ({ token, chain })),
);

/**
 * What the deployment has for one pair in one mode, from its configuration. `swap` and `inventory` are the swap
 * router/quoter and the inventory cap and rebalancing address of the pair's chain; absent, a route needing them lacks them.
 */
export interface PairRouteFacts {
  /** The mode's network has the pair's token contract (published, or TOKEN_<TOKEN>_<CHAIN>_<NETWORK>). */
  contract: boolean;
  /** The mode's network has USDC on the chain: what `cctp` burns and `swap+cctp` swaps into. */
  usdcContract: boolean;
  /** An indexer watches the chain on the mode's network. */
  indexed: boolean;
  /** RPC_URLS_<CHAIN>_<NETWORK>, in order. */
  rpcUrls: readonly string[];
  /** The chain family's DepositCollector for the mode (EVM_/TRON_DEPOSIT_COLLECTOR_<MODE>); irrelevant on solana. */
  collector?: string;
  /** The family's deposit factory and forwarder for the mode are configured (EVM_DEPOSIT_FACTORY_<MODE>). */
  depositFactory: boolean;
  /** CCTP_ATTESTATION_URL. */
  cctpAttestationUrl?: string;
  /** Circle's CCTP V2 contracts (TokenMessengerV2, MessageTransmitterV2) are known on the chain. */
  cctpContracts: boolean;
  swap?: { router?: string; quoter?: string };
  inventory?: { cap?: number; rebalanceAddress?: string };
}

/** One thing a route lacks: what is wrong, and the variable(s) to set. */
export interface RouteGap {
  lacks: string;
  set: string;
}

const NETWORK: Record<Mode, string> = { live: 'mainnet', test: 'testnet' };
const SUFFIX: Record<Mode, string> = { live: 'LIVE', test: 'TEST' };

/**
 * What `token` on `chain` lacks in `mode` to be paid and brought back to the treasury by its route, in the order an
 * operator sets them up; empty when nothing. A pair with no route lacks the route itself.
 */
export function routeGaps(mode: Mode, token: TokenSymbol, chain: Chain, facts: PairRouteFacts): RouteGap[] {
  const kind = pairRoute(token, chain);
  const network = NETWORK[mode];
  const chainVar = `${chain.toUpperCase()}_${network.toUpperCase()}`;
  const modeVar = SUFFIX[mode];
  const family = CHAIN_FACTS[chain].family === 'tron' ? 'TRON' : 'EVM';
  const tokenOverride = (symbol: TokenSymbol) =>
    `TOKEN_${symbol}_${chainVar}${mode === 'live' ? ' (with ALLOW_MAINNET_TOKEN_OVERRIDES=true)' : ''}`;
  if (kind === null) return [{ lacks: `${token} on ${chain} has no route to the Solana USDC treasury`, set: 'nothing: no route exists' }];
  const gaps: RouteGap[] = [];
  if (!facts.contract) gaps.push({ lacks: `${token} has no ${network} contract on ${chain}`, set: tokenOverride(token) });
  if (!facts.indexed) gaps.push({ lacks: `no indexer watches ${chain} on ${network}`, set: `RPC_URLS_${chainVar}` });
  if (kind === 'treasury') return gaps;
  // The live signer re-reads each deposit from another provider than the indexer's before paying it out.
  if (mode === 'live' && facts.indexed && chain !== 'tron' && rereadRpcUrl(mode, facts.rpcUrls) === undefined) {
    gaps.push({ lacks: `${chain} has one RPC provider, not two`, set: `RPC_URLS_${chainVar} (two distinct URLs)` });
  }
  if (chain !== 'solana' && facts.collector === undefined) {
    gaps.push({ lacks: `no DepositCollector on ${chain}`, set: `${family}_DEPOSIT_COLLECTOR_${modeVar}` });
  }
  if (kind === 'cctp' || kind === 'swap+cctp') {
    if (token !== 'USDC' && !facts.usdcContract)
      gaps.push({ lacks: `USDC has no ${network} contract on ${chain}`, set: tokenOverride('USDC') });
    if (!facts.depositFactory) {
      gaps.push({ lacks: 'no deposit contracts', set: `${family}_DEPOSIT_FACTORY_${modeVar} and ${family}_DEPOSIT_FORWARDER_${modeVar}` });
    }
    if (!facts.cctpAttestationUrl) gaps.push({ lacks: 'no CCTP attestation service', set: 'CCTP_ATTESTATION_URL' });
    if (!facts.cctpContracts) gaps.push({ lacks: `CCTP has no contracts on ${chain}`, set: 'nothing: CCTP does not serve this chain' });
  }
  if (kind === 'swap+cctp') {
    if (!facts.swap?.router) gaps.push({ lacks: `no swap router on ${chain}`, set: `SWAP_ROUTER_${chainVar}` });
    if (!facts.swap?.quoter) gaps.push({ lacks: `no swap quoter on ${chain}`, set: `SWAP_QUOTER_${chainVar}` });
  }
  if (kind === 'hold') {
    if (facts.inventory?.cap === undefined) {
      gaps.push({ lacks: `no inventory cap for ${token}:${chain}`, set: `INVENTORY_CAPS (${token}:${chain}=<whole USD>)` });
    }
    if (!facts.inventory?.rebalanceAddress) {
      gaps.push({ lacks: `no rebalancing address on ${chain}`, set: `INVENTORY_REBALANCE_ADDRESS_${chain.toUpperCase()}_${modeVar}` });
    }
  }
  return gaps;
}

/** One pair as `checkout-admin routes` shows it: ready (offered and brought back to the treasury), or why not. */
export interface PairRouteStatus {
  token: TokenSymbol;
  chain: Chain;
  route: PairRouteKind | null;
  ready: boolean;
  /** Live: whether SETTLEMENT_LIVE_ROUTES lists the pair (test mode settles every pair it can see). */
  listed: boolean;
  gaps: RouteGap[];
}

/** Every pair in `mode`: live pairs must be listed in `liveRoutes` and lack nothing; test pairs lack nothing. */
export function pairRouteStatuses(
  mode: Mode,
  liveRoutes: readonly LiveRoute[],
  factsOf: (token: TokenSymbol, chain: Chain) => PairRouteFacts,
): PairRouteStatus[] {
  return ALL_PAIRS.map(({ token, chain }) => {
    const listed = mode === 'test' || liveRoutes.some((route) => route.token === token && route.chain === chain);
    const gaps = routeGaps(mode, token, chain, factsOf(token, chain));
    return { token, chain, route: pairRoute(token, chain), ready: listed && gaps.length === 0, listed, gaps };
  });
}
