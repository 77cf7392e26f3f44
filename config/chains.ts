// Chain configuration from environment variables: RPC endpoints, token contract overrides and indexer tuning.
// Per chain and network the variable names end in `_<CHAIN>_<NETWORK>`, e.g. RPC_URLS_BASE_MAINNET.
// Kept apart from config/env.ts because only the indexers and the chain registry read it.
import { z } from 'zod';
import { isEvmAddress } from '../domain/addresses/evm';
import { isSolanaAddress } from '../domain/addresses/solana';
import { isTronAddress } from '../domain/addresses/tron';
import { CHAIN_FACTS, CHAINS, TOKENS, type Chain } from '../domain/chains/chains';
import type { ChainNetworkConfig, ChainNetworks, TokenOverride } from '../domain/chains/chainRegistry';
import type { Network } from '../domain/chains/tokenContracts';
import { ConfigError } from './env';

export const NETWORKS = ['testnet', 'mainnet'] as const satisfies readonly Network[];

export interface IndexerTuning {
  /** Overrides the per-chain default (its average block time). */
  pollIntervalMs?: number;
  /** The safety-net poll while a new-head subscription is live. */
  subscribedPollIntervalMs: number;
  /** Most blocks one eth_getLogs call may span; catch-up after downtime advances in ranges of this size. */
  maxLogRange: number;
  rpcTimeoutMs: number;
  rpcAttempts: number;
  rpcBackoffMs: number;
  watchReloadMs: number;
  /** Watches that ended less than this long ago still match, so an indexer catching up does not miss them. */
  watchGraceHours: number;
}

/** java-tron's HTTP API, which the Tron relayer writes through (its JSON-RPC, in RPC_URLS_TRON_*, is read-only). */
export interface TronHttpApi {
  /** Serves /wallet/*. */
  fullNodeUrl: string;
  /** Serves /walletsolidity/*: TronGrid on the same host, a self-hosted node on its own port (8091 by default). */
  solidityUrl: string;
}

export interface ChainsConfig extends ChainNetworks {
  indexer: IndexerTuning;
  tronHttpApi: Partial<Record<Network, TronHttpApi>>;
}

export function envSuffix(chain: Chain, network: Network): string {
  return `${chain.toUpperCase()}_${network.toUpperCase()}`;
}

const urlList = (protocol: RegExp) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url.length > 0),
    )
    .pipe(z.array(z.url({ protocol })));

// A setting the operator expects to work must not be silently ignored.
const notForThisFamily = z.string().refine(() => false, 'new-head subscriptions are for EVM chains only; Solana and Tron indexers poll');

const chainIdValue = z
  .string()
  .regex(/^(0x[0-9a-fA-F]+|[0-9]+)$/, 'must be a decimal or 0x-prefixed hex chain id')
  .transform((value) => Number(BigInt(value)))
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

const blockValue = z
  .string()
  .regex(/^[0-9]+$/, 'must be a block number')
  .transform((value) => BigInt(value));

function tokenOverride(chain: Chain) {
  return z
    .string()
    .regex(/^[^:]+:[0-9]{1,2}$/, 'must be <contract address>:<decimals>')
    .transform((value) => {
      const [address = '', decimals = ''] = value.split(':');
      return { address, decimals: Number(decimals) };
    })
    .refine(
      ({ address }) => CHAIN_FACTS[chain].family !== 'evm' || isEvmAddress(address),
      'is not an EVM address (EIP-55 checksum or all lowercase)',
    )
    .refine(({ address }) => CHAIN_FACTS[chain].family !== 'tron' || isTronAddress(address), 'is not a Tron address (base58check T…)')
    .refine(
      ({ address }) => CHAIN_FACTS[chain].family !== 'solana' || isSolanaAddress(address),
      'is not a Solana mint address (32-byte base58)',
    )
    .refine(({ decimals }) => decimals <= 36, 'decimals must be at most 36');
}

const positiveInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

function buildSchema() {
  const shape: Record<string, z.ZodType> = {
    INDEXER_POLL_INTERVAL_MS: positiveInt(50, 600_000).optional(),
    INDEXER_SUBSCRIBED_POLL_INTERVAL_MS: positiveInt(1_000, 3_600_000).default(30_000),
    INDEXER_MAX_LOG_RANGE: positiveInt(1, 100_000).default(500),
    INDEXER_RPC_TIMEOUT_MS: positiveInt(100, 120_000).default(10_000),
    INDEXER_RPC_ATTEMPTS: positiveInt(1, 20).default(4),
    INDEXER_RPC_BACKOFF_MS: positiveInt(1, 60_000).default(250),
    INDEXER_WATCH_RELOAD_MS: positiveInt(1_000, 3_600_000).default(60_000),
    INDEXER_WATCH_GRACE_HOURS: positiveInt(0, 24 * 90).default(24),
    ALLOW_MAINNET_TOKEN_OVERRIDES: z.enum(['true', 'false']).default('false'),
  };
  for (const network of NETWORKS) {
    shape[`TRON_HTTP_API_URL_${network.toUpperCase()}`] = z.url({ protocol: /^https?$/ }).optional();
    shape[`TRON_SOLIDITY_API_URL_${network.toUpperCase()}`] = z.url({ protocol: /^https?$/ }).optional();
  }
  for (const chain of CHAINS) {
    for (const network of NETWORKS) {
      const suffix = envSuffix(chain, network);
      shape[`RPC_URLS_${suffix}`] = urlList(/^https?$/).optional();
      shape[`WS_URLS_${suffix}`] = (CHAIN_FACTS[chain].family === 'evm' ? urlList(/^wss?$/) : notForThisFamily).optional();
      shape[`CHAIN_ID_${suffix}`] = chainIdValue.optional();
      shape[`INDEXER_START_BLOCK_${suffix}`] = blockValue.optional();
      for (const token of TOKENS) shape[`TOKEN_${token}_${suffix}`] = tokenOverride(chain).optional();
    }
  }
  // A mainnet override decides which contract counts as money: a wrong one credits live payments in a token
  // anyone can mint. Test networks need overrides for local and private test tokens; mainnet only deliberately.
  return z.object(shape).superRefine((env, ctx) => {
    for (const network of NETWORKS) {
      const suffix = network.toUpperCase();
      if (env[`TRON_SOLIDITY_API_URL_${suffix}`] !== undefined && env[`TRON_HTTP_API_URL_${suffix}`] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [`TRON_SOLIDITY_API_URL_${suffix}`],
          message: `needs TRON_HTTP_API_URL_${suffix}: the solidified view alone cannot broadcast`,
        });
      }
    }
    if (env.ALLOW_MAINNET_TOKEN_OVERRIDES === 'true') return;
    for (const chain of CHAINS) {
      for (const token of TOKENS) {
        const name = `TOKEN_${token}_${envSuffix(chain, 'mainnet')}`;
        if (env[name] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'replaces a live token contract; set ALLOW_MAINNET_TOKEN_OVERRIDES=true as well if that is really meant',
          });
        }
      }
    }
  });
}

export function loadChainsConfig(env: NodeJS.ProcessEnv): ChainsConfig {
  const parsed = buildSchema().safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data as Record<string, unknown>;
  const networks = {} as Record<Chain, Record<Network, ChainNetworkConfig>>;
  for (const chain of CHAINS) {
    const perNetwork = {} as Record<Network, ChainNetworkConfig>;
    for (const network of NETWORKS) {
      const suffix = envSuffix(chain, network);
      const tokens: ChainNetworkConfig['tokens'] = {};
      for (const token of TOKENS) {
        const override = e[`TOKEN_${token}_${suffix}`] as TokenOverride | undefined;
        if (override) tokens[token] = override;
      }
      const chainId = e[`CHAIN_ID_${suffix}`] as number | undefined;
      const startBlock = e[`INDEXER_START_BLOCK_${suffix}`] as bigint | undefined;
      perNetwork[network] = {
        rpcUrls: (e[`RPC_URLS_${suffix}`] as string[] | undefined) ?? [],
        wsUrls: (e[`WS_URLS_${suffix}`] as string[] | undefined) ?? [],
        ...(chainId === undefined ? {} : { chainId }),
        ...(startBlock === undefined ? {} : { startBlock }),
        tokens,
      };
    }
    networks[chain] = perNetwork;
  }
  const pollIntervalMs = e.INDEXER_POLL_INTERVAL_MS as number | undefined;
  const tronHttpApi: ChainsConfig['tronHttpApi'] = {};
  for (const network of NETWORKS) {
    const fullNodeUrl = e[`TRON_HTTP_API_URL_${network.toUpperCase()}`] as string | undefined;
    const solidityUrl = e[`TRON_SOLIDITY_API_URL_${network.toUpperCase()}`] as string | undefined;
    if (fullNodeUrl) tronHttpApi[network] = { fullNodeUrl, solidityUrl: solidityUrl ?? fullNodeUrl };
  }
  return {
    networks,
    tronHttpApi,
    indexer: {
      ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
      subscribedPollIntervalMs: e.INDEXER_SUBSCRIBED_POLL_INTERVAL_MS as number,
      maxLogRange: e.INDEXER_MAX_LOG_RANGE as number,
      rpcTimeoutMs: e.INDEXER_RPC_TIMEOUT_MS as number,
      rpcAttempts: e.INDEXER_RPC_ATTEMPTS as number,
      rpcBackoffMs: e.INDEXER_RPC_BACKOFF_MS as number,
      watchReloadMs: e.INDEXER_WATCH_RELOAD_MS as number,
      watchGraceHours: e.INDEXER_WATCH_GRACE_HOURS as number,
    },
  };
}
