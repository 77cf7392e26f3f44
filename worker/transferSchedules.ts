// The Temporal Schedules that start CCTP transfers (workflows/cctpTransfer.ts), one per (CCTP source chain, mode):
// transfer_usdc_<chain>_<mode> every TRANSFER_INTERVAL_SECONDS, never two runs at once (overlap SKIP). A run starts
// a transfer when the chain's collector holds TRANSFER_MINIMUM_USDC or more and none is in flight, and otherwise
// makes sure the one in flight has its workflow. Every worker replica ensures them at start, as the sweep
// schedules (worker/sweepSchedules.ts); 0 pauses them. A pair the signer has no route for runs and returns at once.
// Beside each, swap_usdt_<chain>_<mode> on the same interval swaps the collector's USDT to USDC (workflows/usdtSwap.ts),
// which the next transfer then carries.
import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
} from '@temporalio/client';
import { CCTP_SOURCE_DOMAINS, type CctpSourceChain } from '../domain/cctp/domains';
import { transferScheduleId } from '../domain/cctp/transferWorkflowIds';
import type { Mode } from '../domain/wire/session';
import { swapScheduleId } from '../domain/swaps/swapWorkflowIds';

/** Both schedules' runs take the chain and mode alone. */
type RunAction = ScheduleOptionsStartWorkflowAction<(input: { mode: Mode; chain: CctpSourceChain }) => Promise<unknown>>;

const MODES: readonly Mode[] = ['test', 'live'];
const CHAINS = Object.keys(CCTP_SOURCE_DOMAINS) as CctpSourceChain[];

/** Ten seconds when paused: a schedule needs a spec, and a paused one takes no action. */
const spec = (intervalSeconds: number): ScheduleSpec => ({ intervals: [{ every: `${intervalSeconds || 10}s` }] });

const transferAction = (chain: CctpSourceChain, mode: Mode, taskQueue: string): RunAction => ({
  type: 'startWorkflow',
  workflowType: 'transferUsdc',
  args: [{ mode, chain }],
  // The schedule appends the action's time, so each run has its own id: the key of the transfer it starts.
  workflowId: transferScheduleId(chain, mode),
  taskQueue,
});

const swapAction = (chain: CctpSourceChain, mode: Mode, taskQueue: string): RunAction => ({
  type: 'startWorkflow',
  workflowType: 'swapUsdt',
  args: [{ mode, chain }],
  workflowId: swapScheduleId(chain, mode),
  taskQueue,
});

export async function ensureTransferSchedules(client: Client, options: { taskQueue: string; intervalSeconds: number }): Promise<void> {
  const paused = options.intervalSeconds === 0;
  const note = paused ? 'TRANSFER_INTERVAL_SECONDS=0' : `every ${options.intervalSeconds} s`;
  for (const mode of MODES) {
    for (const chain of CHAINS) {
      const schedules = [
        [transferScheduleId(chain, mode), transferAction(chain, mode, options.taskQueue)],
        [swapScheduleId(chain, mode), swapAction(chain, mode, options.taskQueue)],
      ] as const;
      for (const [scheduleId, scheduled] of schedules) {
        const wanted = { spec: spec(options.intervalSeconds), action: scheduled };
        try {
          await client.schedule.create({
            scheduleId,
            ...wanted,
            policies: { overlap: ScheduleOverlapPolicy.SKIP },
            state: { paused, note },
          });
        } catch (error) {
          if (!(error instanceof ScheduleAlreadyRunning)) throw error;
          const handle = client.schedule.getHandle(scheduleId);
          await handle.update((previous) => ({
            ...previous,
            ...wanted,
            policies: { ...previous.policies, overlap: ScheduleOverlapPolicy.SKIP },
          }));
          const { state } = await handle.describe();
          if (paused && !state.paused) await handle.pause(note);
          if (!paused && state.paused) await handle.unpause(note);
        }
      }
    }
  }
}
