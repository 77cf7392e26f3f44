// The Temporal Schedules that run deposit sweeps (workflows/sweepSolanaUsdc.ts), one per mode: sweep_solana_usdc_<mode>
// every SWEEP_INTERVAL_SECONDS, never two runs at once (overlap SKIP). Every worker replica ensures them at start:
// the first creates them, the others (and later starts) update them to the configured interval, so a restart with
// a new interval takes effect; 0 pauses them. A mode whose signer holds no treasury runs and returns at once.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsStartWorkflowAction, type ScheduleSpec } from '@temporalio/client';
import type { Mode } from '../domain/session';
import { sweepScheduleId } from '../domain/taskQueues';
import type { sweepSolanaUsdc } from '../workflows/sweepSolanaUsdc';

const MODES: readonly Mode[] = ['test', 'live'];

/** Ten seconds when paused: a schedule needs a spec, and a paused one takes no action. */
const spec = (intervalSeconds: number): ScheduleSpec => ({ intervals: [{ every: `${intervalSeconds || 10}s` }] });

const action = (mode: Mode, taskQueue: string): ScheduleOptionsStartWorkflowAction<typeof sweepSolanaUsdc> => ({
  type: 'startWorkflow',
  workflowType: 'sweepSolanaUsdc',
  args: [{ mode }],
  // The schedule appends the action's time, so each run has its own id: the plan's key (sweepSolanaUsdc.ts).
  workflowId: sweepScheduleId(mode),
  taskQueue,
});

export async function ensureSweepSchedules(client: Client, options: { taskQueue: string; intervalSeconds: number }): Promise<void> {
  const paused = options.intervalSeconds === 0;
  const note = paused ? 'SWEEP_INTERVAL_SECONDS=0' : `every ${options.intervalSeconds} s`;
  for (const mode of MODES) {
    const scheduleId = sweepScheduleId(mode);
    try {
      await client.schedule.create({ scheduleId, spec: spec(options.intervalSeconds), action: action(mode, options.taskQueue), policies: { overlap: ScheduleOverlapPolicy.SKIP }, state: { paused, note } });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      const handle = client.schedule.getHandle(scheduleId);
      await handle.update((previous) => ({ ...previous, spec: spec(options.intervalSeconds), action: action(mode, options.taskQueue), policies: { ...previous.policies, overlap: ScheduleOverlapPolicy.SKIP } }));
      const { state } = await handle.describe();
      if (paused && !state.paused) await handle.pause(note);
      if (!paused && state.paused) await handle.unpause(note);
    }
  }
}
