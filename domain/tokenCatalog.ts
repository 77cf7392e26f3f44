// GET /checkout/tokens (spec 4.1, 2.8): every token/chain pair the service handles, with the facts a
// merchant needs to show or verify a payment. The spec leaves the payload open; this is its shape.
import { CHAIN_FACTS, CHAINS, TOKENS, type Chain, type TokenSymbol } from './chains';
import { TESTNETS, TOKEN_CONTRACTS, type TokenContract } from './tokenContracts';
import { z } from './validationMessages';

export const TokenListQuery = z
  .object({
    token: z.enum(TOKENS).optional().meta({ description: 'Only this token symbol.' }),
    chain: z.enum(CHAINS).optional().meta({ description: 'Only this chain identifier.' }),
  })
  .strict();
export type TokenListQuery = z.infer<typeof TokenListQuery>;

const ContractInfo = z
  .object({
    address: z.string().meta({ description: 'Token contract (EVM, tron) or SPL mint (solana).' }),
    decimals: z.number().int(),
    canonical: z.boolean().meta({ description: 'True when the issuer (Circle, Tether) itself names this contract; false for an exchange- or bridge-issued representation.' }),
    note: z.string().nullable(),
  })
  .strict();
export type ContractInfo = z.infer<typeof ContractInfo>;

export const TokenChainInfo = z
  .object({
    symbol: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    chain_id: z.string().nullable().meta({ description: 'Hex chain id of the mainnet as spec 2.8 gives it; null for solana and tron.' }),
    confirmations_required: z.number().int(),
    average_block_time_seconds: z.number(),
    estimated_finality_seconds: z.number(),
    mainnet: ContractInfo.nullable().meta({ description: 'The contract live keys pay in; null when the pair is not accepted on mainnet.' }),
    testnet: z
      .object({
        network: z.string(),
        chain_id: z.string().nullable(),
        contract: ContractInfo.nullable().meta({ description: 'Public test-network contract; null where the issuer publishes none and a test deployment configures its own.' }),
      })
      .strict()
      .meta({ description: 'The test network test keys use.' }),
  })
  .strict();
export type TokenChainInfo = z.infer<typeof TokenChainInfo>;

export const TokenListResponse = z.object({ tokens: z.array(TokenChainInfo) }).strict();
export type TokenListResponse = z.infer<typeof TokenListResponse>;

function contractInfo(contract: TokenContract | null): ContractInfo | null {
  return contract && { address: contract.address, decimals: contract.decimals, canonical: contract.canonical, note: contract.note ?? null };
}

function describePair(token: TokenSymbol, chain: Chain): TokenChainInfo {
  const facts = CHAIN_FACTS[chain];
  const deployments = TOKEN_CONTRACTS[token][chain];
  return {
    symbol: token,
    chain,
    chain_id: facts.chainId ?? null,
    confirmations_required: facts.confirmations,
    average_block_time_seconds: facts.averageBlockTimeSeconds,
    estimated_finality_seconds: facts.estimatedFinalitySeconds,
    mainnet: contractInfo(deployments.mainnet),
    testnet: { network: TESTNETS[chain].name, chain_id: TESTNETS[chain].chainId ?? null, contract: contractInfo(deployments.testnet) },
  };
}

/** Token-major, in the order of TOKENS and CHAINS, so the list is stable across calls. */
export function tokenCatalog(filter: TokenListQuery): TokenChainInfo[] {
  return TOKENS.filter((t) => !filter.token || t === filter.token).flatMap((token) =>
    CHAINS.filter((c) => !filter.chain || c === filter.chain).map((chain) => describePair(token, chain)),
  );
}
