// The signer's Tron forwarder sweepers (signer/sweeps/tronSweep.ts), one per mode whose relayer key is
// configured: the relayer of TRON_RELAYER_KEY_<MODE> signs on the mode's Tron network through java-tron's HTTP API
// (TRON_HTTP_API_URL_<NETWORK>, TRON_SOLIDITY_API_URL_<NETWORK>). A key without that API is a configuration error
// at start, not a sweeper that fails on every run. Each sweeps the mode's Tron HD deposit addresses too, with the
// mode's deposit seed, into TRON_DEPOSIT_COLLECTOR_<MODE> where one is set.
import { tronRelayer } from '../chainWrites/tronRelayer';
import { createTronWalletApi } from '../../activities/http/tronWalletApi';
import type { TronSweepDeps } from '../sweeps/tronSweep';
import type { ChainsConfig } from '../../config/chains';
import { ConfigError } from '../../config/env';
import type { TronSweepConfig } from '../../config/tronSweeps';
import type { Sql } from '../../db/client';
import type { SweepMaterial } from './evmSweepers';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

const MODES: readonly Mode[] = ['test', 'live'];

/**
 * How long past the solidified head's time a sweep may still enter a block. The solidified head trails the latest by
 * about a minute on mainnet (19 blocks), so this leaves minutes to be included; a lost transaction is replaced only
 * once the solidified chain is past it, so a longer window would only delay that.
 */
export const TRON_SWEEP_EXPIRATION_MS = 5 * 60_000;

export function tronSweepersFromConfig(
  config: { tronSweeps: TronSweepConfig; batchSize: number; maxAddressFailures: number },
  chains: Pick<ChainsConfig, 'tronHttpApi'>,
  registry: ChainRegistry,
  sql: Sql,
  hd: SweepMaterial,
): Partial<Record<Mode, TronSweepDeps>> {
  const sweepers: Partial<Record<Mode, TronSweepDeps>> = {};
  for (const mode of MODES) {
    const key = config.tronSweeps.relayerKeys[mode];
    if (!key) continue;
    const network = networkForMode(mode);
    const api = chains.tronHttpApi[network];
    if (!api) {
      throw new ConfigError(
        `invalid configuration: TRON_RELAYER_KEY_${mode.toUpperCase()}: needs TRON_HTTP_API_URL_${network.toUpperCase()}, the java-tron HTTP API its sweeps are signed against and sent to`,
      );
    }
    sweepers[mode] = {
      sql,
      api: createTronWalletApi(api),
      relayer: tronRelayer(key),
      mode,
      expirationMs: TRON_SWEEP_EXPIRATION_MS,
      tokens: registry.get('tron', network).tokens,
      minimumWholeTokens: config.tronSweeps.minimumWholeTokens,
      batchSize: config.batchSize,
      maxAddressFailures: config.maxAddressFailures,
      forwarders: hd.depositForwarders[mode],
      feeLimitSun: config.tronSweeps.feeLimitSun,
      hdFeeLimitSun: config.tronSweeps.hdFeeLimitSun,
      depositSeed: hd.depositSeeds[mode],
      collector: hd.collectors[mode],
    };
  }
  return sweepers;
}
