// The Temporal Schedules that run deposit sweeps: sweep_solana_usdc_<mode> (workflows/sweepSolanaUsdc.ts), one per
// mode, and sweep_evm_<chain>_<token>_<mode> / sweep_tron_<token>_<mode> (workflows/sweepEvmDeposits.ts), one per
// EVM chain or Tron, token and mode with forwarder deposit addresses or, on EVM chains, a collector for HD ones
// (evmSweepScopes), every SWEEP_INTERVAL_SECONDS (worker/intervalSchedule.ts: never two runs at once, ensured by
// every worker replica at start, 0 pauses them). A mode whose signer holds no treasury (or no relayer) runs
// and returns at once.
import type { ScheduleOptionsStartWorkflowAction, Client } from '@temporalio/client';
import type { Config } from '../config/env';
import type { ChainRegistry } from '../domain/chains/chainRegistry';
import { FORWARDER_CHAINS, type ForwarderChain } from '../domain/sweeps/evmSweepPlan';
import { networkForMode } from '../domain/session/payablePairs';
import type { Mode } from '../domain/wire/session';
import { evmSweepScheduleId, sweepScheduleId } from '../domain/taskQueues';
import type { SweepEvmDepositsInput, sweepEvmDeposits } from '../workflows/sweepEvmDeposits';
import type { sweepSolanaUsdc } from '../workflows/sweepSolanaUsdc';
import { ensureIntervalSchedule } from './intervalSchedule';

const MODES: readonly Mode[] = ['test', 'live'];

// The schedule appends the action's time to the workflow id, so each run has its own id: the plan's key.
const solanaAction = (mode: Mode, taskQueue: string): ScheduleOptionsStartWorkflowAction<typeof sweepSolanaUsdc> => ({
  type: 'startWorkflow',
  workflowType: 'sweepSolanaUsdc',
  args: [{ mode }],
  workflowId: sweepScheduleId(mode),
  taskQueue,
});

const evmAction = (scope: SweepEvmDepositsInput, taskQueue: string): ScheduleOptionsStartWorkflowAction<typeof sweepEvmDeposits> => ({
  type: 'startWorkflow',
  workflowType: 'sweepEvmDeposits',
  args: [scope],
  workflowId: evmSweepScheduleId(scope),
  taskQueue,
});

/**
 * The forwarder and HD sweeps this deployment has: for each mode, each chain it has a forwarder factory of the
 * chain's family for (EVM_DEPOSIT_FACTORY_<MODE>, TRON_DEPOSIT_FACTORY_<MODE>) or a collector the family's HD
 * deposit addresses are swept to (EVM_DEPOSIT_COLLECTOR_<MODE>, TRON_DEPOSIT_COLLECTOR_<MODE>); of those, each chain of its network with an RPC
 * endpoint (the indexer's: no deposits are seen without it), each token the chain has there.
 */
export function evmSweepScopes(
  config: Pick<Config, 'depositForwarders' | 'depositCollectors' | 'tronDepositCollectors'>,
  registry: ChainRegistry,
): SweepEvmDepositsInput[] {
  const swept = (mode: Mode, chain: ForwarderChain) =>
    chain === 'tron'
      ? config.depositForwarders[mode].tron !== undefined || config.tronDepositCollectors[mode] !== undefined
      : config.depositForwarders[mode].evm !== undefined || config.depositCollectors[mode] !== undefined;
  return MODES.flatMap((mode) =>
    FORWARDER_CHAINS.filter((chain) => swept(mode, chain))
      .map((chain) => ({ chain, deployment: registry.get(chain, networkForMode(mode)) }))
      .filter(({ deployment }) => deployment.rpcUrls.length > 0)
      .flatMap(({ chain, deployment }) => deployment.tokens.map((token) => ({ chain, token: token.symbol, mode }))),
  );
}

export async function ensureSweepSchedules(
  client: Client,
  options: { taskQueue: string; intervalSeconds: number; evmScopes?: readonly SweepEvmDepositsInput[] },
): Promise<void> {
  const interval = { seconds: options.intervalSeconds, variable: 'SWEEP_INTERVAL_SECONDS' };
  for (const mode of MODES) await ensureIntervalSchedule(client, sweepScheduleId(mode), solanaAction(mode, options.taskQueue), interval);
  for (const scope of options.evmScopes ?? [])
    await ensureIntervalSchedule(client, evmSweepScheduleId(scope), evmAction(scope, options.taskQueue), interval);
}
