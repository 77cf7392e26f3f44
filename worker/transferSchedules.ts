// The Temporal Schedules that start CCTP transfers (workflows/cctpTransfer.ts), one per (CCTP source chain, mode):
// transfer_usdc_<chain>_<mode> every TRANSFER_INTERVAL_SECONDS, never two runs at once (overlap SKIP). A run starts
// a transfer when the chain's collector holds TRANSFER_MINIMUM_USDC or more and none is in flight, and otherwise
// makes sure the one in flight has its workflow. Every worker replica ensures them at start, as the sweep
// schedules (worker/sweepSchedules.ts); 0 pauses them. A pair the signer has no route for runs and returns at once.
// Beside each, swap_usdt_<chain>_<mode> on the same interval swaps the collector's USDT to USDC (workflows/usdtSwap.ts),
// which the next transfer then carries.
import type { Client, ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { CCTP_SOURCE_DOMAINS, type CctpSourceChain } from '../domain/cctp/domains';
import { transferScheduleId } from '../domain/cctp/transferWorkflowIds';
import type { Mode } from '../domain/wire/session';
import { swapScheduleId } from '../domain/swaps/swapWorkflowIds';
import { ensureIntervalSchedule } from './intervalSchedule';

/** Both schedules' runs take the chain and mode alone. */
type RunAction = ScheduleOptionsStartWorkflowAction<(input: { mode: Mode; chain: CctpSourceChain }) => Promise<unknown>>;

const MODES: readonly Mode[] = ['test', 'live'];
const CHAINS = Object.keys(CCTP_SOURCE_DOMAINS) as CctpSourceChain[];

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
  const interval = { seconds: options.intervalSeconds, variable: 'TRANSFER_INTERVAL_SECONDS' };
  for (const mode of MODES) {
    for (const chain of CHAINS) {
      await ensureIntervalSchedule(client, transferScheduleId(chain, mode), transferAction(chain, mode, options.taskQueue), interval);
      await ensureIntervalSchedule(client, swapScheduleId(chain, mode), swapAction(chain, mode, options.taskQueue), interval);
    }
  }
}
