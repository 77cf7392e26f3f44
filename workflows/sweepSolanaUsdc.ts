// Sweeps a mode's Solana deposit accounts into its treasury (docs/settlement.md#r6-inventory-on-its-own-clock:
// never blocking a session). Started by the schedule sweep_solana_usdc_<mode> (worker/sweepSchedules.ts) or an
// operator (checkout-admin sweep run). The signer plans the batches, written ahead under this run's workflow id, so
// a retried plan finds them; each batch is advanced pass after pass until it has landed or proved empty.
import { sleep, workflowInfo } from '@temporalio/workflow';
import type { Mode } from '../domain/wire/session';
import { sweeps } from './sessionActivities';

export interface SweepSolanaUsdcInput {
  mode: Mode;
}

export type SweepSolanaUsdcResult =
  | { kind: 'no_treasury' }
  /** USDC base units as a decimal string; failed batches' accounts are taken again by the next run. */
  | { kind: 'swept'; batches: number; failed: number; usdcSwept: string };

/** While a submitted sweep waits for its block: a few slots. */
const CONFIRMATION_POLL = '2 seconds';

export async function sweepSolanaUsdc({ mode }: SweepSolanaUsdcInput): Promise<SweepSolanaUsdcResult> {
  const plan = await sweeps(mode).planSolanaSweep({ mode, runKey: workflowInfo().workflowId });
  if (plan.status === 'no_treasury') return { kind: 'no_treasury' };
  let failed = 0;
  let usdcSwept = 0n;
  for (const sweepId of plan.sweepIds) {
    for (;;) {
      const outcome = await sweeps(mode).advanceSolanaSweep({ mode, sweepId });
      if (outcome.status === 'submitted') {
        await sleep(CONFIRMATION_POLL);
        continue;
      }
      if (outcome.status === 'failed' || outcome.status === 'no_treasury') failed++;
      if (outcome.status === 'confirmed' || outcome.status === 'finalized') usdcSwept += BigInt(outcome.usdcSwept);
      break;
    }
  }
  return { kind: 'swept', batches: plan.sweepIds.length, failed, usdcSwept: usdcSwept.toString() };
}
