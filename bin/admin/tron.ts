// `tron resources`: what the mode's Tron relayer holds to pay its sweeps' energy, read now from the Tron HTTP API
// (getaccountresource, getaccount, getchainparameters): energy available and used (staked by the relayer or
// delegated to it, e.g. rented), the TRX it staked for energy, its TRX, and what a sweep needs by the measured
// estimate (domain/chains/tronEnergy.ts), so an operator sees before the sweeps wait whether to rent or stake more
// (docs/settlement.md#tron-energy). The relayer's address is the one the signer recorded at its first Tron sweep run:
// only the signer holds its key.
import { createTronWalletApi } from '../../activities/http/tronWalletApi';
import { relayerBalances } from '../../db/repositories/relayerBalances';
import {
  SWEEP_LATER_ADDRESS_ENERGY,
  SWEEP_MANY_BASE_ENERGY,
  forwarderSweepEnergy,
  hdTransferEnergy,
  tronFeeLimitSun,
} from '../../domain/chains/tronEnergy';
import { networkForMode } from '../../domain/session/payablePairs';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, ModeOption, table, type CommandGroup } from './cli';
import { decimalText } from './settlement';

/** A node that does not answer must not hold the operator for long. */
const API_TIMEOUT_MS = 10_000;
const trx = (sun: bigint) => decimalText(sun, 6);

const resources = defineCommand({
  name: 'resources',
  summary: "the mode's Tron relayer: energy available and used, TRX staked for energy, TRX balance, and the energy a sweep needs",
  options: { mode: { value: '<test|live>', description: "the relayer's mode (required)" } },
  readOnly: true,
  schema: z.object({ mode: ModeOption }),
  async run(context, input) {
    const network = networkForMode(input.mode);
    const apiConfig = context.chains().tronHttpApi[network];
    if (!apiConfig) throw new CliError(`no Tron HTTP API to read: set TRON_HTTP_API_URL_${network.toUpperCase()}`);
    const relayer = (await relayerBalances(context.sql())).find((r) => r.chain === 'tron' && r.mode === input.mode);
    if (!relayer)
      throw new CliError(`the signer has not recorded the ${input.mode} Tron relayer's address yet: it does at its first Tron sweep run`);
    const api = createTronWalletApi({ ...apiConfig, timeoutMs: API_TIMEOUT_MS });
    const [prices, held] = await Promise.all([api.chainPrices(), api.accountResources(relayer.address)]);
    const available = held.energyLimit > held.energyUsed ? held.energyLimit - held.energyUsed : 0n;
    const firstSweep = forwarderSweepEnergy(1, prices);
    const laterSweep = SWEEP_MANY_BASE_ENERGY + SWEEP_LATER_ADDRESS_ENERGY;
    const hd = hdTransferEnergy(prices);
    const json = {
      mode: input.mode,
      relayer: relayer.address,
      energy_limit: held.energyLimit.toString(),
      energy_used: held.energyUsed.toString(),
      energy_available: available.toString(),
      staked_for_energy_trx: trx(held.stakedForEnergySun),
      trx_balance: trx(held.trxBalanceSun),
      energy_fee_sun: prices.energyFeeSun.toString(),
      dynamic_energy_max_factor: prices.dynamicEnergyMaxFactor.toString(),
      estimate: {
        first_sweep_energy: firstSweep.toString(),
        later_sweep_energy: laterSweep.toString(),
        hd_transfer_energy: hd.toString(),
        first_sweep_fee_limit_trx: trx(tronFeeLimitSun(firstSweep, prices, 2n ** 63n)),
        first_sweeps_covered_by_energy: (available / firstSweep).toString(),
      },
    };
    return {
      json,
      text: table(
        ['RESOURCE', 'VALUE'],
        [
          ['relayer', relayer.address],
          ['energy available', `${available} of ${held.energyLimit} (${held.energyUsed} used)`],
          ['TRX staked for energy', trx(held.stakedForEnergySun)],
          ['TRX balance', trx(held.trxBalanceSun)],
          ['energy price', `${prices.energyFeeSun} sun`],
          ['one-address sweep, first (clone deployed)', `${firstSweep} energy`],
          ['one-address sweep, later', `${laterSweep} energy (TVM-rules run, test token)`],
          ['HD transfer', `${hd} energy`],
          ['first sweeps the energy covers', json.estimate.first_sweeps_covered_by_energy],
        ],
      ),
    };
  },
});

export const tronCommands: CommandGroup = { name: 'tron', summary: "the Tron relayer's energy and TRX", commands: [resources] };
