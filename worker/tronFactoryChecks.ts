// The worker's start-up check of each mode's Tron factory (TRON_DEPOSIT_FACTORY_<MODE>): before any session is handed
// a Tron forwarder address, the factory must answer addressOf(probe) with the address the service computes offline
// (domain/addresses/tronFactoryProbe.ts). A factory of the EVM build predicts with 0xff where the TVM uses 0x41, and
// every address handed out through it would hold its deposits for good; the worker refuses to start instead.
import { createTronWalletApi } from '../activities/http/tronWalletApi';
import type { ChainsConfig } from '../config/chains';
import { ConfigError } from '../config/env';
import type { DepositForwarders } from '../domain/addresses/depositForwarder';
import { TRON_FACTORY_PROBE_SALT, tronFactoryProbeMismatch } from '../domain/addresses/tronFactoryProbe';
import { networkForMode } from '../domain/session/payablePairs';
import type { Mode } from '../domain/wire/session';

const MODES: readonly Mode[] = ['test', 'live'];

/** Throws a ConfigError naming TRON_DEPOSIT_FACTORY_<MODE> for the first mode whose factory fails the check. */
export async function checkTronFactories(forwarders: DepositForwarders, chains: Pick<ChainsConfig, 'tronHttpApi'>): Promise<void> {
  for (const mode of MODES) {
    const contracts = forwarders[mode].tron;
    if (!contracts) continue;
    const variable = `TRON_DEPOSIT_FACTORY_${mode.toUpperCase()}`;
    const network = networkForMode(mode);
    const api = chains.tronHttpApi[network];
    if (!api) {
      throw new ConfigError(
        `invalid configuration: ${variable}: needs TRON_HTTP_API_URL_${network.toUpperCase()}, to check at start that the factory's addressOf is the address the service hands out`,
      );
    }
    let answered: string;
    try {
      answered = await createTronWalletApi(api).forwarderAddressOf(contracts.factory, TRON_FACTORY_PROBE_SALT);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(`${variable}: could not ask the factory ${contracts.factory} for addressOf at start (${reason})`);
    }
    const mismatch = tronFactoryProbeMismatch(contracts, answered);
    if (mismatch) {
      throw new ConfigError(
        `${variable}: ${mismatch}. Tron forwarders stay refused until ${variable} and TRON_DEPOSIT_FORWARDER_${mode.toUpperCase()} name a TVM-built pair`,
      );
    }
  }
}
