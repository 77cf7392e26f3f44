// The signer's CCTP routes from configuration: for each mode with a relayer key (EVM_RELAYER_KEY_<MODE>), a collector
// (EVM_DEPOSIT_COLLECTOR_<MODE>) and a treasury, one route per CCTP source chain the mode's network has an RPC
// endpoint and a USDC contract for. A chain without them has no route: its schedule runs and does nothing.
import { createPublicClient, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createAttestationClient } from '../activities/cctp/attestationClient';
import { createEvmChainWriter } from '../activities/chainWrites/evmChainWriter';
import type { TreasuryPayoutDeps } from '../activities/settlement/treasuryPayout';
import type { CctpRoutes } from '../activities/transfers/cctpTransfers';
import type { Config } from '../config/env';
import { CCTP_SOURCE_DOMAINS, cctpSpeedFor, type CctpSourceChain } from '../domain/cctp/domains';
import type { ChainRegistry } from '../domain/chainRegistry';
import { networkForMode } from '../domain/payablePairs';
import type { Mode } from '../domain/session';

/** How long a burn may wait unmined before it is replaced with the same nonce and 20 % higher fees. */
const STUCK_AFTER_MS = 3 * 60_000;
const FEE_BUMP_PERCENT = 20;
/** 500 gwei: above it a burn waits rather than pay what no rebalancing is worth. */
const MAX_FEE_PER_GAS_CAP = 500n * 10n ** 9n;
const RPC_TIMEOUT_MS = 10_000;
const USDC_BASE_UNITS = 1_000_000n;

export type CctpRouteConfig = Pick<Config, 'evmRelayerKeys' | 'depositCollectors' | 'cctpAttestationUrl' | 'cctpFastChains' | 'transferMinimumUsdc'>;

export function cctpRoutesFromConfig(config: CctpRouteConfig, registry: ChainRegistry, treasuries: Partial<Record<Mode, TreasuryPayoutDeps>>): CctpRoutes {
  const routes: CctpRoutes = {};
  const attestation = createAttestationClient({ baseUrl: config.cctpAttestationUrl });
  for (const mode of ['test', 'live'] as const) {
    const key = config.evmRelayerKeys[mode];
    const collector = config.depositCollectors[mode];
    const treasury = treasuries[mode];
    if (!key || !collector || !treasury) continue;
    const account = privateKeyToAccount(key as `0x${string}`);
    const network = networkForMode(mode);
    for (const chain of Object.keys(CCTP_SOURCE_DOMAINS) as CctpSourceChain[]) {
      const deployment = registry.get(chain, network);
      const usdc = registry.token(chain, network, 'USDC');
      const [rpcUrl] = deployment.rpcUrls;
      if (!rpcUrl || !usdc || deployment.chainId === undefined) continue;
      const client = createPublicClient({ transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS }) });
      (routes[mode] ??= {})[chain] = {
        mode,
        chain,
        client,
        writer: createEvmChainWriter({
          sql: treasury.sql,
          client,
          account,
          chain,
          mode,
          chainId: deployment.chainId,
          requiredConfirmations: deployment.confirmations,
          stuckAfterMs: STUCK_AFTER_MS,
          feeBumpPercent: FEE_BUMP_PERCENT,
          maxFeePerGasCap: MAX_FEE_PER_GAS_CAP,
        }),
        usdc: usdc.address as Address,
        collector: collector as Address,
        speed: cctpSpeedFor(chain, config.cctpFastChains.includes(chain)),
        minimum: BigInt(config.transferMinimumUsdc) * USDC_BASE_UNITS,
        attestation,
        treasury,
      };
    }
  }
  return routes;
}
