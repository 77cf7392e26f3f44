// The forwarder and HD side of `sweep`, EVM chains and Tron: sweeps into the collector
// (docs/settlement.md#evm-forwarder-sweeps, #evm-hd-sweeps). `sweep now` triggers a (chain, token, mode)'s schedule at
// once: the schedule skips a run while one is going, and a plan never puts an address in two unlanded sweeps, so it is
// safe at any time.
import { ScheduleNotFoundError } from '@temporalio/client';
import type { CollectorSweep } from '../../db/repositories/collectorSweeps';
import { clearSweepAddressFailure, listSweepAddressFailures } from '../../db/repositories/sweepAddressFailures';
import { TOKENS } from '../../domain/chains/chains';
import { FORWARDER_CHAINS, type ForwarderChain } from '../../domain/sweeps/evmSweepPlan';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, ModeOption, table, when } from './cli';

export const evmSweepJson = (s: CollectorSweep) => ({
  id: s.id,
  mode: s.mode,
  chain: s.chain,
  token: s.token,
  kind: s.kind,
  factory: s.factory,
  collector: s.collector,
  status: s.status,
  tx_hash: s.txHash,
  moved_base_units: s.movedBaseUnits?.toString() ?? null,
  gas_wei: s.gasWei?.toString() ?? null,
  topup_rounds: s.topupRounds,
  topup_wei: s.topupWei?.toString() ?? null,
  topup_gas_wei: s.topupGasWei?.toString() ?? null,
  created_at: s.createdAt.toISOString(),
  landed_at: s.landedAt?.toISOString() ?? null,
  addresses: s.addresses.map((a) => ({
    address: a.address,
    session_id: a.sessionId,
    planned_base_units: a.plannedBaseUnits.toString(),
    swept_base_units: a.sweptBaseUnits?.toString() ?? null,
  })),
});

export function evmSweepTable(sweeps: readonly CollectorSweep[]): string[] {
  // The fee is in the chain's native base unit: wei, or sun on Tron (the sweep id names the chain).
  return table(
    ['FORWARDER SWEEP', 'MODE', 'TOKEN', 'STATUS', 'ADDRESSES', 'MOVED', 'FEE', 'CREATED', 'TX'],
    sweeps.map((s) => [
      s.id,
      s.mode,
      s.token,
      s.status,
      String(s.addresses.length),
      s.movedBaseUnits?.toString() ?? '-',
      s.gasWei?.toString() ?? '-',
      when(s.createdAt),
      s.txHash ?? '-',
    ]),
  );
}

export const ForwarderChainOption = z.enum(FORWARDER_CHAINS as [string, ...string[]]);

/** The sweep scope a forwarder command names: its chain, token and mode. */
const SCOPE_OPTIONS = {
  chain: { value: `<${FORWARDER_CHAINS.join('|')}>`, description: 'the EVM chain, or tron (required)' },
  token: { value: `<${TOKENS.join('|')}>`, description: 'the token (required)' },
  mode: { value: '<test|live>', description: 'the mode (required)' },
};
const SCOPE_SCHEMA = {
  chain: ForwarderChainOption,
  token: z
    .string()
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(TOKENS)),
  mode: ModeOption,
};

export const sweepNow = defineCommand({
  name: 'now',
  summary: "trigger a chain's forwarder sweep schedule now (sweep_evm_<chain>_<token>_<mode>, sweep_tron_<token>_<mode>)",
  options: SCOPE_OPTIONS,
  schema: z.object(SCOPE_SCHEMA),
  async run(context, input) {
    const scheduleId = evmSweepScheduleId({ chain: input.chain, token: input.token, mode: input.mode });
    const temporal = await context.temporal();
    try {
      await temporal.schedule.getHandle(scheduleId).trigger();
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) {
        const factory = input.chain === 'tron' ? 'TRON_DEPOSIT_FACTORY_*' : 'EVM_DEPOSIT_FACTORY_*';
        throw new CliError(
          `no schedule ${scheduleId}: the worker creates it at start for a mode with ${factory} and a chain with an RPC endpoint`,
        );
      }
      throw error;
    }
    return {
      json: { schedule_id: scheduleId, triggered: true },
      text: [`${scheduleId} triggered: the signer plans the batches and sweeps them; see sweep list --mode ${input.mode}`],
      targets: [scheduleId],
    };
  },
});

export const sweepFailures = defineCommand({
  name: 'failures',
  summary: 'list forwarder addresses whose sweep reverts in simulation, with their count and last revert',
  options: {},
  readOnly: true,
  schema: z.object({}),
  async run(context) {
    const rows = await listSweepAddressFailures(context.sql());
    return {
      json: {
        failures: rows.map((r) => ({
          mode: r.mode,
          chain: r.chain,
          token: r.token,
          address: r.address,
          failures: r.failures,
          last_error: r.lastError,
          last_failed_at: r.lastFailedAt.toISOString(),
        })),
      },
      text:
        rows.length === 0
          ? ['no failing forwarder addresses']
          : table(
              ['ADDRESS', 'MODE', 'CHAIN', 'TOKEN', 'FAILURES', 'LAST FAILED', 'LAST ERROR'],
              rows.map((r) => [r.address, r.mode, r.chain, r.token, String(r.failures), when(r.lastFailedAt), r.lastError]),
            ),
    };
  },
});

export const sweepClearFailure = defineCommand({
  name: 'clear-failure',
  summary: "forget a forwarder address's failed sweep simulations, so the next plan takes it again",
  options: {
    ...SCOPE_OPTIONS,
    address: { value: '<address>', description: 'the deposit address, as sweep failures lists it (required)' },
  },
  schema: z.object({
    ...SCOPE_SCHEMA,
    address: z.string().trim().min(1),
  }),
  async run(context, input) {
    const address = input.chain === 'tron' ? input.address : input.address.toLowerCase();
    const scope = { mode: input.mode, chain: input.chain as ForwarderChain, token: input.token };
    if (!(await clearSweepAddressFailure(context.sql(), scope, address)))
      throw new CliError(`no failures counted for ${address} (${input.chain} ${input.token} ${input.mode}): see sweep failures`);
    return {
      json: { ...scope, address, cleared: true },
      text: [`${address} cleared: the next ${input.chain} ${input.token} sweep of ${input.mode} plans it again`],
      targets: [address],
    };
  },
});
