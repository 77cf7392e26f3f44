// Sweeps one (chain, token, mode)'s deposit addresses into the collector, forwarder batches and HD
// addresses, on an EVM chain or Tron alike. Started by the schedule sweep_evm_<chain>_<token>_<mode> or
// sweep_tron_<token>_<mode> (worker/sweepSchedules.ts) or an operator (checkout-admin sweep now). The signer plans the
// sweeps, written ahead under this run's workflow id, so a retried plan finds them; each is advanced pass after pass
// until it has landed (finalized or reverted).
import { sleep, workflowInfo } from '@temporalio/workflow';
import type { TokenSymbol } from '../domain/chains/chains';
import type { ForwarderChain } from '../domain/sweeps/evmSweepPlan';
import type { Mode } from '../domain/wire/session';
import { sweeps } from './sessionActivities';

export interface SweepEvmDepositsInput {
  chain: ForwarderChain;
  token: TokenSymbol;
  mode: Mode;
}

export type SweepEvmDepositsResult =
  | { kind: 'no_relayer' }
  /** Token base units as a decimal string; failed batches' addresses are taken again by the next run. */
  | { kind: 'swept'; batches: number; failed: number; moved: string };

/** While a sweep waits for its block or its depth; also how long a sweep held by the fee ceiling waits. */
const POLL = '10 seconds';

export async function sweepEvmDeposits({ chain, token, mode }: SweepEvmDepositsInput): Promise<SweepEvmDepositsResult> {
  const plan = await sweeps(mode).planEvmSweep({ chain, token, mode, runKey: workflowInfo().workflowId });
  if (plan.status === 'no_relayer') return { kind: 'no_relayer' };
  let failed = 0;
  let moved = 0n;
  for (const sweepId of plan.sweepIds) {
    for (;;) {
      const outcome = await sweeps(mode).advanceEvmSweep({ chain, mode, sweepId });
      if (outcome.status === 'pending' || outcome.status === 'submitted') {
        await sleep(POLL);
        continue;
      }
      if (outcome.status === 'failed' || outcome.status === 'no_relayer') failed++;
      if (outcome.status === 'finalized') moved += BigInt(outcome.moved);
      break;
    }
  }
  return { kind: 'swept', batches: plan.sweepIds.length, failed, moved: moved.toString() };
}
