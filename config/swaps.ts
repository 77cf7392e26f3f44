// USDT→USDC swaps in the collectors of the CCTP chains (docs/settlement.md#usdt-swaps): per chain and network the
// Uniswap SwapRouter02 the collector calls and the QuoterV2 the signer prices with, the pool's fee tier and how far
// below 1:1 a quote may be before the swap waits. Read once at start with the rest of the configuration;
// docs/configuration.md lists them.
import { z } from 'zod';
import { isEvmAddress } from '../domain/addresses/evm';
import { CCTP_SOURCE_DOMAINS, type CctpSourceChain } from '../domain/cctp/domains';
import type { Network } from '../domain/chains/tokenContracts';
import { DEFAULT_SWAP_MAX_DEVIATION_BPS, DEFAULT_SWAP_POOL_FEE, SWAP_POOL_FEES } from '../domain/swaps/swap';

// Spelled as config/chains.ts spells RPC_URLS_<CHAIN>_<NETWORK>, not imported: that module imports config/env.ts.
const NETWORKS = ['testnet', 'mainnet'] as const satisfies readonly Network[];
const envSuffix = (chain: CctpSourceChain, network: Network) => `${chain.toUpperCase()}_${network.toUpperCase()}`;

export interface SwapContracts {
  router: `0x${string}`;
  quoter: `0x${string}`;
}

export interface SwapConfig {
  /** SWAP_ROUTER_ and SWAP_QUOTER_<CHAIN>_<NETWORK>: a chain swaps only where both are set. */
  contracts: Record<Network, Partial<Record<CctpSourceChain, SwapContracts>>>;
  poolFee: number;
  maxDeviationBps: number;
}

const SWAP_CHAINS = Object.keys(CCTP_SOURCE_DOMAINS) as CctpSourceChain[];

const address = z
  .string()
  .trim()
  .refine(isEvmAddress, 'is not an EVM address (EIP-55 checksum or all lowercase)')
  .transform((value) => value as `0x${string}`);

function schema() {
  const shape: Record<string, z.ZodType> = {
    SWAP_POOL_FEE: z.coerce
      .number()
      .int()
      .refine((fee) => (SWAP_POOL_FEES as readonly number[]).includes(fee), `must be a Uniswap V3 fee tier: ${SWAP_POOL_FEES.join(', ')}`)
      .default(DEFAULT_SWAP_POOL_FEE),
    SWAP_MAX_DEVIATION_BPS: z.coerce.number().int().min(0).max(1000).default(DEFAULT_SWAP_MAX_DEVIATION_BPS),
  };
  for (const chain of SWAP_CHAINS) {
    for (const network of NETWORKS) {
      shape[`SWAP_ROUTER_${envSuffix(chain, network)}`] = address.optional();
      shape[`SWAP_QUOTER_${envSuffix(chain, network)}`] = address.optional();
    }
  }
  return z.object(shape);
}

/** The configuration, or what is wrong with it (each issue names its variable). */
export function swapConfigFromEnv(env: NodeJS.ProcessEnv): { config?: SwapConfig; issues: string[] } {
  const parsed = schema().safeParse(env);
  if (!parsed.success) return { issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  const e = parsed.data as Record<string, unknown>;
  const issues: string[] = [];
  const contracts: SwapConfig['contracts'] = { mainnet: {}, testnet: {} };
  for (const network of NETWORKS) {
    for (const chain of SWAP_CHAINS) {
      const suffix = envSuffix(chain, network);
      const router = e[`SWAP_ROUTER_${suffix}`] as `0x${string}` | undefined;
      const quoter = e[`SWAP_QUOTER_${suffix}`] as `0x${string}` | undefined;
      if (router && quoter) contracts[network][chain] = { router, quoter };
      else if (router || quoter) {
        const [set, missing] = router ? ['SWAP_ROUTER', 'SWAP_QUOTER'] : ['SWAP_QUOTER', 'SWAP_ROUTER'];
        issues.push(`${missing}_${suffix}: is needed with ${set}_${suffix}: a swap is priced by the quoter and sent through the router`);
      }
    }
  }
  if (issues.length > 0) return { issues };
  return {
    issues,
    config: { contracts, poolFee: e.SWAP_POOL_FEE as number, maxDeviationBps: e.SWAP_MAX_DEVIATION_BPS as number },
  };
}
