// Each mode's treasury as the processes without its key see it (the worker's scheduled reconciliation, the admin
// CLI): its public address (SOLANA_TREASURY_ADDRESS_*), its network's first RPC URL and USDC mint, and the mode's
// DepositCollector (EVM_DEPOSIT_COLLECTOR_*) on each EVM chain the deployment reaches, and each such chain's deposit
// addresses, HD gas and relayer; and Tron, through its HTTP API (TRON_HTTP_API_URL_*), where the mode's network has one.
import { address, createSolanaRpc } from '@solana/kit';
import { createPublicClient, http, type Address as EvmAddress, type PublicClient } from 'viem';
import type { EvmChainView } from '../activities/settlement/evmChainHoldings';
import type { CollectorView, TreasuryView } from '../activities/settlement/ledgerReconciliation';
import type { TronView } from '../activities/settlement/tronHoldings';
import { createTronWalletApi } from '../activities/http/tronWalletApi';
import type { ChainsConfig } from '../config/chains';
import { ConfigError, type Config } from '../config/env';
import type { ChainRegistry } from '../domain/chains/chainRegistry';
import { EVM_CHAINS } from '../domain/sweeps/evmSweepPlan';
import { networkForMode } from '../domain/session/payablePairs';
import type { Mode } from '../domain/wire/session';

const MODES: readonly Mode[] = ['test', 'live'];

/** Reads of another chain's node: a node that does not answer must not hold a reconciliation run for long. */
const EVM_RPC_TIMEOUT_MS = 10_000;

/** Each EVM chain of the mode's network with an RPC endpoint and tokens. */
function evmChainViews(mode: Mode, registry: ChainRegistry): EvmChainView[] {
  return EVM_CHAINS.map((chain) => registry.get(chain, networkForMode(mode)))
    .filter((deployment) => deployment.rpcUrls.length > 0 && deployment.tokens.length > 0)
    .map((deployment) => ({
      chain: deployment.chain,
      client: createPublicClient({ transport: http(deployment.rpcUrls[0], { timeout: EVM_RPC_TIMEOUT_MS }) }) as PublicClient,
      tokens: deployment.tokens.map((token) => ({ symbol: token.symbol, address: token.address as EvmAddress })),
      confirmations: deployment.confirmations,
    }));
}

/** The mode's DepositCollector on each of `chains` (EVM_DEPOSIT_COLLECTOR_<MODE>). */
function collectorViews(collector: string | undefined, chains: readonly EvmChainView[]): CollectorView[] {
  if (!collector) return [];
  return chains.map((chain) => ({ ...chain, address: collector as EvmAddress }));
}

/** Tron on the mode's network, where its HTTP API is configured and the indexer watches tokens there. */
function tronView(
  mode: Mode,
  registry: ChainRegistry,
  tronHttpApi: ChainsConfig['tronHttpApi'],
  collector: string | undefined,
): TronView | undefined {
  const network = networkForMode(mode);
  const api = tronHttpApi[network];
  const { tokens } = registry.get('tron', network);
  if (!api || tokens.length === 0) return undefined;
  return {
    api: createTronWalletApi(api),
    tokens: tokens.map((token) => ({ symbol: token.symbol, address: token.address })),
    ...(collector ? { collector } : {}),
  };
}

/** One view per mode given a treasury address; a mode without one is not reconciled. */
export function treasuryViewsFromConfig(
  config: Pick<Config, 'solanaTreasuryAddresses'> & Partial<Pick<Config, 'depositCollectors' | 'tronDepositCollectors'>>,
  registry: ChainRegistry,
  tronHttpApi: ChainsConfig['tronHttpApi'] = {},
): TreasuryView[] {
  return MODES.flatMap((mode) => {
    const treasury = config.solanaTreasuryAddresses[mode];
    if (!treasury) return [];
    const network = networkForMode(mode);
    const variable = `SOLANA_TREASURY_ADDRESS_${mode.toUpperCase()}`;
    const [rpcUrl] = registry.get('solana', network).rpcUrls;
    if (!rpcUrl)
      throw new ConfigError(
        `invalid configuration: ${variable}: needs RPC_URLS_SOLANA_${network.toUpperCase()}, the network its treasury is on`,
      );
    const usdc = registry.token('solana', network, 'USDC');
    if (!usdc)
      throw new ConfigError(
        `invalid configuration: ${variable}: no USDC mint on solana ${network} (TOKEN_USDC_SOLANA_${network.toUpperCase()})`,
      );
    const evmChains = evmChainViews(mode, registry);
    const collectors = collectorViews(config.depositCollectors?.[mode], evmChains);
    const tron = tronView(mode, registry, tronHttpApi, config.tronDepositCollectors?.[mode]);
    return [
      {
        mode,
        rpc: createSolanaRpc(rpcUrl),
        treasury: address(treasury),
        usdcMint: address(usdc.address),
        ...(collectors.length > 0 ? { collectors } : {}),
        ...(evmChains.length > 0 ? { evmChains } : {}),
        ...(tron ? { tron } : {}),
      },
    ];
  });
}
