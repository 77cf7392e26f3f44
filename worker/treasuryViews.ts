// Each mode's treasury as the processes without its key see it (the worker's scheduled reconciliation, the admin
// CLI): its public address (SOLANA_TREASURY_ADDRESS_*), its network's first RPC URL and USDC mint.
import { address, createSolanaRpc } from '@solana/kit';
import type { TreasuryView } from '../activities/settlement/ledgerReconciliation';
import { ConfigError, type Config } from '../config/env';
import type { ChainRegistry } from '../domain/chainRegistry';
import { networkForMode } from '../domain/payablePairs';
import type { Mode } from '../domain/session';

const MODES: readonly Mode[] = ['test', 'live'];

/** One view per mode given a treasury address; a mode without one is not reconciled. */
export function treasuryViewsFromConfig(config: Pick<Config, 'solanaTreasuryAddresses'>, registry: ChainRegistry): TreasuryView[] {
  return MODES.flatMap((mode) => {
    const treasury = config.solanaTreasuryAddresses[mode];
    if (!treasury) return [];
    const network = networkForMode(mode);
    const variable = `SOLANA_TREASURY_ADDRESS_${mode.toUpperCase()}`;
    const [rpcUrl] = registry.get('solana', network).rpcUrls;
    if (!rpcUrl) throw new ConfigError(`invalid configuration: ${variable}: needs RPC_URLS_SOLANA_${network.toUpperCase()}, the network its treasury is on`);
    const usdc = registry.token('solana', network, 'USDC');
    if (!usdc) throw new ConfigError(`invalid configuration: ${variable}: no USDC mint on solana ${network} (TOKEN_USDC_SOLANA_${network.toUpperCase()})`);
    return [{ mode, rpc: createSolanaRpc(rpcUrl), treasury: address(treasury), usdcMint: address(usdc.address) }];
  });
}
