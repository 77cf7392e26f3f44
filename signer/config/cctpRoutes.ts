// The signer's CCTP routes from configuration: for each mode with a relayer key (EVM_RELAYER_KEY_<MODE>), a collector
// (EVM_DEPOSIT_COLLECTOR_<MODE>) and a treasury, one route per CCTP source chain the mode's network has an RPC
// endpoint and a USDC contract for. A chain without them has no route: its schedule runs and does nothing.
import { createPublicClient, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createAttestationClient } from '../cctp/attestationClient';
import { createEvmChainWriter } from '../chainWrites/evmChainWriter';
import type { TreasuryPayoutDeps } from '../payouts/treasuryPayout';
import type { CctpRoutes } from '../transfers/cctpTransfers';
import type { Config } from '../../config/env';
import { CCTP_SOURCE_DOMAINS, cctpSpeedFor, type CctpSourceChain } from '../../domain/cctp/domains';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

const RPC_TIMEOUT_MS = 10_000;
const USDC_BASE_UNITS = 1_000_000n;

/** The relayer key and its chain writers' settings are the sweeps' (config/evmSweeps.ts): one relayer, one nonce sequence per chain. */
export type CctpRouteConfig = Pick<
  Config,
  'evmSweeps' | 'depositCollectors' | 'cctpAttestationUrl' | 'cctpFastChains' | 'cctpMaxFeeBps' | 'transferMinimumUsdc'
>;

export function cctpRoutesFromConfig(
  config: CctpRouteConfig,
  registry: ChainRegistry,
  treasuries: Partial<Record<Mode, TreasuryPayoutDeps>>,
): CctpRoutes {
  const routes: CctpRoutes = {};
  const attestation = createAttestationClient({ baseUrl: config.cctpAttestationUrl });
  for (const mode of ['test', 'live'] as const) {
    const key = config.evmSweeps.relayerKeys[mode];
    const collector = config.depositCollectors[mode];
    const treasury = treasuries[mode];
    if (!key || !collector || !treasury) continue;
    const account = privateKeyToAccount(key);
    const network = networkForMode(mode);
    for (const chain of Object.keys(CCTP_SOURCE_DOMAINS) as CctpSourceChain[]) {
      const deployment = registry.get(chain, network);
      const usdc = registry.token(chain, network, 'USDC');
      const [rpcUrl] = deployment.rpcUrls;
      const witnessUrl = deployment.rpcUrls.at(-1);
      if (!rpcUrl || !usdc || deployment.chainId === undefined) continue;
      const client = createPublicClient({ transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS }) });
      (routes[mode] ??= {})[chain] = {
        mode,
        chain,
        client,
        writer: createEvmChainWriter({
          sql: treasury.sql,
          client,
          // The second provider a nonce taken by another transaction needs before a new one is signed.
          ...(witnessUrl === undefined || witnessUrl === rpcUrl
            ? {}
            : { witness: createPublicClient({ transport: http(witnessUrl, { timeout: RPC_TIMEOUT_MS }) }) }),
          account,
          chain,
          mode,
          chainId: deployment.chainId,
          requiredConfirmations: deployment.confirmations,
          stuckAfterMs: config.evmSweeps.stuckAfterSeconds * 1000,
          feeBumpPercent: config.evmSweeps.feeBumpPercent,
          maxFeePerGasCap: config.evmSweeps.maxFeePerGasWei[chain],
        }),
        usdc: usdc.address as Address,
        collector: collector as Address,
        speed: cctpSpeedFor(chain, config.cctpFastChains.includes(chain)),
        maxFeeBps: config.cctpMaxFeeBps,
        minimum: BigInt(config.transferMinimumUsdc) * USDC_BASE_UNITS,
        confirmations: deployment.confirmations,
        attestation,
        treasury,
      };
    }
  }
  return routes;
}
