// `sweep list | run | now`: Solana deposit sweeps into the treasury (docs/settlement.md#deposit-sweeps) and EVM
// and Tron forwarder sweeps into the collector (bin/admin/evmSweeps.ts). list reads the sweep rows of both; run starts a
// Solana sweep of one mode now, beside its schedule: the plan takes one treasury lock at a time and never puts an
// account in two batches, so a run beside a scheduled one is safe.
import { ulid } from 'ulid';
import { listCollectorSweeps } from '../../db/repositories/collectorSweeps';
import { listSweeps, type Sweep } from '../../db/repositories/solanaSweeps';
import { sweepScheduleId } from '../../domain/taskQueues';
import { z } from '../../domain/wire/validationMessages';
import type { sweepSolanaUsdc } from '../../workflows/sweepSolanaUsdc';
import { defineCommand, integerOption, ModeOption, table, when, type CommandGroup } from './cli';
import { evmSweepJson, evmSweepTable, sweepClearFailure, sweepFailures, sweepNow } from './evmSweeps';
import { usdcText } from './settlement';

const sweepJson = (s: Sweep) => ({
  id: s.id,
  mode: s.mode,
  status: s.status,
  signature: s.signature,
  treasury: s.treasury,
  usdc_swept: s.usdcSwept === null ? null : usdcText(s.usdcSwept),
  usdc_swept_base_units: s.usdcSwept?.toString() ?? null,
  fee_lamports: s.feeLamports?.toString() ?? null,
  rent_lamports: s.rentLamports?.toString() ?? null,
  created_at: s.createdAt.toISOString(),
  landed_at: s.landedAt?.toISOString() ?? null,
  accounts: s.accounts.map((a) => ({
    owner: a.owner,
    token_account: a.tokenAccount,
    derivation_index: a.derivationIndex,
    planned_base_units: a.plannedBaseUnits.toString(),
    swept_base_units: a.sweptBaseUnits?.toString() ?? null,
  })),
});

const list = defineCommand({
  name: 'list',
  summary: 'list Solana and forwarder (EVM, Tron) deposit sweeps, newest first, with what each moved',
  options: {
    mode: { value: '<test|live>', description: 'only this mode' },
    limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
  },
  readOnly: true,
  schema: z.object({ mode: ModeOption.optional(), limit: integerOption(1, 1000).optional() }),
  async run(context, input) {
    const filter = { ...(input.mode ? { mode: input.mode } : {}), limit: input.limit ?? 50 };
    const sweeps = await listSweeps(context.sql(), filter);
    const evmSweeps = await listCollectorSweeps(context.sql(), filter);
    const solanaLines =
      sweeps.length === 0
        ? []
        : table(
            ['SWEEP', 'MODE', 'STATUS', 'ACCOUNTS', 'USDC', 'FEE', 'RENT', 'CREATED', 'SIGNATURE'],
            sweeps.map((s) => [
              s.id,
              s.mode,
              s.status,
              String(s.accounts.length),
              s.usdcSwept === null ? '-' : usdcText(s.usdcSwept),
              s.feeLamports?.toString() ?? '-',
              s.rentLamports?.toString() ?? '-',
              when(s.createdAt),
              s.signature ?? '-',
            ]),
          );
    const evmLines = evmSweeps.length === 0 ? [] : evmSweepTable(evmSweeps);
    const both = solanaLines.length > 0 && evmLines.length > 0;
    return {
      json: { sweeps: sweeps.map(sweepJson), collector_sweeps: evmSweeps.map(evmSweepJson) },
      text: solanaLines.length + evmLines.length === 0 ? ['no sweeps'] : [...solanaLines, ...(both ? [''] : []), ...evmLines],
    };
  },
});

const run = defineCommand({
  name: 'run',
  summary: "sweep one mode's settled Solana deposit accounts into its treasury now, beside the schedule",
  options: { mode: { value: '<test|live>', description: 'the mode whose deposits and treasury (required)' } },
  schema: z.object({ mode: ModeOption }),
  async run(context, input) {
    const temporal = await context.temporal();
    // Named after the schedule, as its runs are, so one search finds both; the plan is keyed by this id.
    const workflowId = `${sweepScheduleId(input.mode)}-manual-${ulid()}`;
    const handle = await temporal.workflow.start<typeof sweepSolanaUsdc>('sweepSolanaUsdc', {
      workflowId,
      taskQueue: context.config.temporal.taskQueue,
      args: [{ mode: input.mode }],
    });
    return {
      json: { mode: input.mode, workflow_id: workflowId, run_id: handle.firstExecutionRunId, started: true },
      text: [`${workflowId} started: the signer plans the batches and sweeps them; see sweep list --mode ${input.mode}`],
      targets: [workflowId],
    };
  },
});

export const sweepCommands: CommandGroup = {
  name: 'sweep',
  summary: 'deposit sweeps: Solana into the treasury, EVM and Tron forwarders into the collector',
  commands: [list, run, sweepNow, sweepFailures, sweepClearFailure],
};
