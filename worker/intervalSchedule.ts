// One Temporal Schedule that runs a workflow every `intervalSeconds`, never two runs at once (overlap SKIP), ensured
// by every worker replica at start: the first creates it, the others (and later starts) update it to the configured
// interval and action, so a restart with a new interval takes effect; 0 pauses it. The sweep and transfer schedules
// (worker/sweepSchedules.ts, worker/transferSchedules.ts) are all of this kind.
import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
  type Workflow,
} from '@temporalio/client';

/** Ten seconds when paused: a schedule needs a spec, and a paused one takes no action. */
const spec = (intervalSeconds: number): ScheduleSpec => ({ intervals: [{ every: `${intervalSeconds || 10}s` }] });

/** `intervalVariable` names the setting in the schedule's note, so a paused schedule says why. */
export async function ensureIntervalSchedule<W extends Workflow>(
  client: Client,
  scheduleId: string,
  action: ScheduleOptionsStartWorkflowAction<W>,
  interval: { seconds: number; variable: string },
): Promise<void> {
  const paused = interval.seconds === 0;
  const note = paused ? `${interval.variable}=0` : `every ${interval.seconds} s`;
  try {
    await client.schedule.create({
      scheduleId,
      spec: spec(interval.seconds),
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      state: { paused, note },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    const handle = client.schedule.getHandle(scheduleId);
    await handle.update((previous) => ({
      ...previous,
      spec: spec(interval.seconds),
      action,
      policies: { ...previous.policies, overlap: ScheduleOverlapPolicy.SKIP },
    }));
    const { state } = await handle.describe();
    if (paused && !state.paused) await handle.pause(note);
    if (!paused && state.paused) await handle.unpause(note);
  }
}
