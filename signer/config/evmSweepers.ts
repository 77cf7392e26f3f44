// The signer's EVM sweepers (signer/sweeps/evmSweep.ts), one per (EVM chain, mode) whose relayer key and RPC
// endpoint are configured: the relayer of EVM_RELAYER_KEY_<MODE> signs on every EVM chain of the mode's network
// (RPC_URLS_<CHAIN>_<NETWORK>, first URL; the last, where it differs, is the second provider a new nonce needs), with
// that chain's fee ceiling and threshold. HD deposit addresses are swept
// with the mode's deposit seed into EVM_DEPOSIT_COLLECTOR_<MODE>, where one is set.
import { createPublicClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DepositForwarders } from '../../domain/addresses/depositForwarder';
import type { DepositSeeds } from '../../domain/addresses/depositSeed';
import type { EvmSweepDeps } from '../sweeps/evmSweep';
import type { EvmSweeperKey } from '../sweeps/evmSweeps';
import type { EvmSweepConfig } from '../../config/evmSweeps';
import type { Sql } from '../../db/client';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { EVM_CHAINS } from '../../domain/sweeps/evmSweepPlan';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

const MODES: readonly Mode[] = ['test', 'live'];

/** Signing reads the chain under row locks: a node that does not answer must not hold them for long. */
const RPC_TIMEOUT_MS = 10_000;

const rpcClient = (url: string) => createPublicClient({ transport: http(url, { timeout: RPC_TIMEOUT_MS }) }) as PublicClient;

/** What HD sweeps need per mode: the deposit seed their keys derive from and the collector they send to. */
export interface HdSweepMaterial {
  depositSeeds: DepositSeeds;
  collectors: Record<Mode, string | undefined>;
}

/** With the forwarder contracts the signer was configured with: the only factories its forwarder sweeps call. */
export interface SweepMaterial extends HdSweepMaterial {
  depositForwarders: DepositForwarders;
}

export function evmSweepersFromConfig(
  config: EvmSweepConfig,
  registry: ChainRegistry,
  sql: Sql,
  hd: SweepMaterial,
): Partial<Record<EvmSweeperKey, EvmSweepDeps>> {
  const sweepers: Partial<Record<EvmSweeperKey, EvmSweepDeps>> = {};
  for (const mode of MODES) {
    const key = config.relayerKeys[mode];
    if (!key) continue;
    const account = privateKeyToAccount(key);
    for (const chain of EVM_CHAINS) {
      const deployment = registry.get(chain, networkForMode(mode));
      const [rpcUrl] = deployment.rpcUrls;
      const witnessUrl = deployment.rpcUrls.at(-1);
      if (!rpcUrl || deployment.chainId === undefined) continue;
      sweepers[`${chain}:${mode}`] = {
        sql,
        client: rpcClient(rpcUrl),
        ...(witnessUrl === undefined || witnessUrl === rpcUrl ? {} : { witness: rpcClient(witnessUrl) }),
        account,
        chain,
        mode,
        chainId: deployment.chainId,
        requiredConfirmations: deployment.confirmations,
        stuckAfterMs: config.stuckAfterSeconds * 1000,
        feeBumpPercent: config.feeBumpPercent,
        maxFeePerGasCap: config.maxFeePerGasWei[chain],
        tokens: deployment.tokens,
        minimumWholeTokens: config.minimumWholeTokens[chain],
        batchSize: config.batchSize,
        maxAddressFailures: config.maxAddressFailures,
        forwarders: hd.depositForwarders[mode],
        depositSeed: hd.depositSeeds[mode],
        collector: hd.collectors[mode],
      };
    }
  }
  return sweepers;
}
