// GET /checkout/tokens (docs/api.md#chains-and-tokens): every token/chain pair the service handles, with the facts a
// merchant needs to show or verify a payment.
import { isPayable, type PaymentOffer } from '../session/payablePairs';
import type { ChainRegistry, TokenDeployment } from './chainRegistry';
import { CHAIN_FACTS, CHAINS, TOKENS, type Chain, type TokenSymbol } from './chains';
import { TESTNETS, TOKEN_CONTRACTS, type TokenContract } from './tokenContracts';
import { z } from '../wire/validationMessages';

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
    canonical: z.boolean().meta({
      description:
        'True when the issuer (Circle, Tether) itself names this contract; false for an exchange- or bridge-issued representation, or a contract this deployment configured.',
    }),
    note: z.string().nullable(),
  })
  .strict();
export type ContractInfo = z.infer<typeof ContractInfo>;

export const TokenChainInfo = z
  .object({
    symbol: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    chain_id: z.string().nullable().meta({ description: 'Hex chain id of the mainnet; null for solana and tron.' }),
    confirmations_required: z.number().int(),
    average_block_time_seconds: z.number(),
    estimated_finality_seconds: z.number(),
    mainnet: ContractInfo.nullable().meta({ description: 'The contract live keys pay in; null when the pair is not accepted on mainnet.' }),
    testnet: z
      .object({
        network: z.string(),
        chain_id: z.string().nullable().meta({
          description: 'Hex chain id test payments are made on: the public test network, or the chain this deployment configured.',
        }),
        contract: ContractInfo.nullable().meta({
          description:
            'The contract test keys pay in: the public test-network contract, or the one this deployment configured; null when there is none.',
        }),
      })
      .strict()
      .meta({ description: 'The test network test keys use.' }),
    payable: z
      .object({
        live: z.boolean(),
        test: z.boolean(),
      })
      .strict()
      .meta({
        description:
          "Whether this deployment's live and test sessions offer the pair: its network has the contract, an indexer watches the chain there and, for live keys, a settlement route is configured (SETTLEMENT_LIVE_ROUTES). A pair a session offers is still limited to the merchant's accepted pairs.",
      }),
  })
  .strict();
export type TokenChainInfo = z.infer<typeof TokenChainInfo>;

export const TokenListResponse = z.object({ tokens: z.array(TokenChainInfo) }).strict();
export type TokenListResponse = z.infer<typeof TokenListResponse>;

/**
 * What payments are made in, from the chain registry (what select-payment and the indexers use), with the
 * issuer's facts where it is the published contract. A configured override (a local test token) is shown as such.
 */
function contractInfo(deployed: TokenDeployment | undefined, published: TokenContract | null, chain: Chain): ContractInfo | null {
  if (!deployed) return null;
  const same = (a: string, b: string) => (CHAIN_FACTS[chain].family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (published && same(published.address, deployed.address) && published.decimals === deployed.decimals) {
    return { address: published.address, decimals: published.decimals, canonical: published.canonical, note: published.note ?? null };
  }
  return {
    address: deployed.address,
    decimals: deployed.decimals,
    canonical: false,
    note: "Configured by this deployment, not the issuer's published contract.",
  };
}

function describePair(registry: ChainRegistry, offer: PaymentOffer, token: TokenSymbol, chain: Chain): TokenChainInfo {
  const facts = CHAIN_FACTS[chain];
  const published = TOKEN_CONTRACTS[token][chain];
  const configuredId = registry.get(chain, 'testnet').chainId;
  const testChainId = configuredId === undefined ? (TESTNETS[chain].chainId ?? null) : `0x${configuredId.toString(16)}`;
  // A deployment that points the test network at a chain of its own (npm start's local node) says so.
  const replaced = testChainId !== (TESTNETS[chain].chainId ?? null);
  return {
    symbol: token,
    chain,
    chain_id: facts.chainId ?? null,
    confirmations_required: facts.confirmations,
    average_block_time_seconds: facts.averageBlockTimeSeconds,
    estimated_finality_seconds: facts.estimatedFinalitySeconds,
    mainnet: contractInfo(registry.token(chain, 'mainnet', token), published.mainnet, chain),
    testnet: {
      network: replaced ? `chain ${testChainId} configured by this deployment (in place of ${TESTNETS[chain].name})` : TESTNETS[chain].name,
      chain_id: testChainId,
      contract: contractInfo(registry.token(chain, 'testnet', token), published.testnet, chain),
    },
    payable: { live: isPayable(registry, offer, 'live', token, chain), test: isPayable(registry, offer, 'test', token, chain) },
  };
}

/** Token-major, in the order of TOKENS and CHAINS, so the list is stable across calls. */
export function tokenCatalog(registry: ChainRegistry, offer: PaymentOffer, filter: TokenListQuery): TokenChainInfo[] {
  return TOKENS.filter((t) => !filter.token || t === filter.token).flatMap((token) =>
    CHAINS.filter((c) => !filter.chain || c === filter.chain).map((chain) => describePair(registry, offer, token, chain)),
  );
}
