// Held inventory (docs/settlement.md#held-inventory): the pairs whose deposits no bridge carries back to the Solana
// treasury stay in the chain's collector until an operator withdraws them to a rebalancing address. What the treasury
// paid out against such a pair and has not got back is the operator's exposure to it; INVENTORY_CAPS bounds it per
// pair, in whole USD, and a pair at its cap is offered to no new session.
import { CHAINS, TOKENS, type Chain, type TokenSymbol } from '../chains/chains';
import { ALL_PAIRS, pairRoute } from '../settlement/pairRoutes';

export interface InventoryPair {
  token: TokenSymbol;
  chain: Chain;
}

/** The pairs held as inventory, those whose route is `hold`: bsc's Binance-Peg USDC and USDT, Solana's and Tron's USDT. */
export const HELD_INVENTORY_PAIRS: readonly InventoryPair[] = ALL_PAIRS.filter(({ token, chain }) => pairRoute(token, chain) === 'hold');

/** The chains held inventory is on, each with its own rebalancing address (INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE>). */
export const HELD_INVENTORY_CHAINS = ['bsc', 'tron', 'solana'] as const satisfies readonly Chain[];
export type HeldInventoryChain = (typeof HELD_INVENTORY_CHAINS)[number];

export const isHeldInventoryChain = (chain: string): chain is HeldInventoryChain =>
  (HELD_INVENTORY_CHAINS as readonly string[]).includes(chain);

export const pairText = (pair: InventoryPair): string => `${pair.token}:${pair.chain}`;

export const isHeldInventoryPair = (pair: InventoryPair): boolean =>
  HELD_INVENTORY_PAIRS.some((held) => held.token === pair.token && held.chain === pair.chain);

/** INVENTORY_CAPS: whole USD per held pair; a pair not named has no cap. */
export type InventoryCaps = ReadonlyMap<string, bigint>;

const MAX_CAP_USD = 1_000_000_000n;

/** `TOKEN:chain=<whole USD>`, comma-separated; throws naming the first entry that is not one of a held pair. */
export function parseInventoryCaps(text: string): InventoryCaps {
  const caps = new Map<string, bigint>();
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const match = /^([A-Z]+):([a-z]+)=(\d{1,10})$/.exec(entry);
    const pair = match && { token: match[1] as TokenSymbol, chain: match[2] as Chain };
    if (!match || !pair || !TOKENS.includes(pair.token) || !CHAINS.includes(pair.chain)) {
      throw new Error(`"${entry}" is not TOKEN:chain=<whole USD>`);
    }
    if (!isHeldInventoryPair(pair)) {
      throw new Error(`"${entry}": ${pairText(pair)} is not held as inventory (held: ${HELD_INVENTORY_PAIRS.map(pairText).join(', ')})`);
    }
    const usd = BigInt(match[3]!);
    if (usd > MAX_CAP_USD) throw new Error(`"${entry}": at most ${MAX_CAP_USD} USD`);
    if (caps.has(pairText(pair))) throw new Error(`"${entry}": ${pairText(pair)} is capped twice`);
    caps.set(pairText(pair), usd);
  }
  return caps;
}

/** The pair's cap in whole USD, or undefined when INVENTORY_CAPS names none (the pair is not capped). */
export function inventoryCapFor(caps: InventoryCaps, pair: InventoryPair): bigint | undefined {
  return caps.get(pairText(pair));
}

/**
 * Whether an exposure of `exposureBaseUnits` (the token's base units, `decimals` places) has reached a cap of
 * `capUsd` whole dollars. Stablecoin units count at one dollar each: the cap bounds the treasury's USDC paid out,
 * which was paid at no more than that (LIVE_TOKEN_PRICES_USD refuses a rate above 1).
 */
export function isAtCap(exposureBaseUnits: bigint, capUsd: bigint | undefined, decimals: number): boolean {
  if (capUsd === undefined) return false;
  return exposureBaseUnits >= capUsd * 10n ** BigInt(decimals);
}

/** Pairs (pairText) that reached their cap since `before`, and those that fell below it: each is one crossing to alert on. */
export function capCrossings(before: ReadonlySet<string>, now: ReadonlySet<string>): { reached: string[]; left: string[] } {
  return { reached: [...now].filter((p) => !before.has(p)), left: [...before].filter((p) => !now.has(p)) };
}
