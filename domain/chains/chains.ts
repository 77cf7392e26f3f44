/** Tokens and chains of docs/api.md#chains-and-tokens. Contract addresses and RPC endpoints live in the chain registry. */
export const TOKENS = ['USDC', 'USDT'] as const;
export type TokenSymbol = (typeof TOKENS)[number];

export const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'solana', 'tron'] as const;
export type Chain = (typeof CHAINS)[number];

export interface ChainFacts {
  family: 'evm' | 'solana' | 'tron';
  /** Hex chain id of the mainnet; absent for the chains without one (solana, tron). */
  chainId?: `0x${string}`;
  confirmations: number;
  averageBlockTimeSeconds: number;
  estimatedFinalitySeconds: number;
}

export const CHAIN_FACTS: Record<Chain, ChainFacts> = {
  ethereum: { family: 'evm', chainId: '0x1', confirmations: 12, averageBlockTimeSeconds: 12, estimatedFinalitySeconds: 150 },
  polygon: { family: 'evm', chainId: '0x89', confirmations: 128, averageBlockTimeSeconds: 2, estimatedFinalitySeconds: 270 },
  arbitrum: { family: 'evm', chainId: '0xa4b1', confirmations: 64, averageBlockTimeSeconds: 0.25, estimatedFinalitySeconds: 16 },
  optimism: { family: 'evm', chainId: '0xa', confirmations: 64, averageBlockTimeSeconds: 2, estimatedFinalitySeconds: 120 },
  base: { family: 'evm', chainId: '0x2105', confirmations: 64, averageBlockTimeSeconds: 2, estimatedFinalitySeconds: 120 },
  bsc: { family: 'evm', chainId: '0x38', confirmations: 15, averageBlockTimeSeconds: 3, estimatedFinalitySeconds: 45 },
  solana: { family: 'solana', confirmations: 32, averageBlockTimeSeconds: 0.4, estimatedFinalitySeconds: 13 },
  tron: { family: 'tron', confirmations: 19, averageBlockTimeSeconds: 3, estimatedFinalitySeconds: 60 },
};

/** `{ tokens: { USDC: { chain: [...] } } }`, the shape of supported_tokens / unsupported_tokens (docs/api.md#sessions-and-transactions). */
export interface TokenChainSet {
  tokens: Partial<Record<TokenSymbol, { chain: Chain[] }>>;
}

export type TokenChainPairs = Partial<Record<TokenSymbol, Chain[]>>;

export const ALL_TOKEN_CHAIN_PAIRS: TokenChainPairs = { USDC: [...CHAINS], USDT: [...CHAINS] };

export function toTokenChainSet(pairs: TokenChainPairs): TokenChainSet {
  const tokens: TokenChainSet['tokens'] = {};
  for (const token of TOKENS) {
    const chains = CHAINS.filter((chain) => pairs[token]?.includes(chain));
    if (chains.length > 0) tokens[token] = { chain: chains };
  }
  return { tokens };
}

/** The pairs of every token/chain the service offers that `supported` leaves out. */
export function complementPairs(supported: TokenChainPairs): TokenChainPairs {
  const rest: TokenChainPairs = {};
  for (const token of TOKENS) {
    const chains = CHAINS.filter((chain) => !supported[token]?.includes(chain));
    if (chains.length > 0) rest[token] = chains;
  }
  return rest;
}
