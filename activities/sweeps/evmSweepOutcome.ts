// What a pass of an EVM sweep answers, forwarder or HD alike: from the sweep's row once it has landed, else from its
// chain intent's progress, recording the landing (and its ledger postings) the first time a pass sees it final.
import { findEvmSweep, setEvmSweepSubmitted, type EvmSweep } from '../../db/repositories/evmSweeps';
import type { Sql } from '../../db/client';
import type { EvmWriteProgress } from '../chainWrites/evmChainWriter';

export type EvmSweepOutcome =
  /** Nothing signed yet: fees are above the ceiling (`deferred`) or the pass stopped before signing. */
  | { status: 'pending'; deferred?: string }
  | { status: 'submitted'; txHash: string }
  | { status: 'finalized'; txHash: string; moved: string; gasWei: string }
  /** Reverted: the gas is spent and posted, the addresses are taken by the next run. */
  | { status: 'failed'; txHash: string; gasWei: string };

export function landedOutcome(sweep: EvmSweep): EvmSweepOutcome | undefined {
  const txHash = sweep.txHash ?? '';
  const gasWei = (sweep.gasWei ?? 0n).toString();
  if (sweep.status === 'finalized') return { status: 'finalized', txHash, moved: (sweep.movedBaseUnits ?? 0n).toString(), gasWei };
  if (sweep.status === 'failed') return { status: 'failed', txHash, gasWei };
  return undefined;
}

/** The outcome of a pass of the sweep's intent (or of the intent it waits for); `record` records a landing. */
export async function progressOutcome(
  sql: Sql,
  sweep: EvmSweep,
  progress: EvmWriteProgress,
  record: (status: 'finalized' | 'failed', txHash: string) => Promise<EvmSweepOutcome>,
): Promise<EvmSweepOutcome> {
  const { intent } = progress;
  switch (intent.status) {
    case 'prepared':
      return progress.deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred: progress.deferred };
    case 'signed':
    case 'broadcast':
    case 'confirmed':
      await setEvmSweepSubmitted(sql, sweep.id, intent.signature ?? '');
      return { status: 'submitted', txHash: intent.signature ?? '' };
    case 'finalized':
    case 'failed':
      return record(intent.status, intent.signature ?? '');
  }
}

/** The outcome a landing just recorded (or an earlier pass recorded) in the sweep's row. */
export async function recordedOutcome(sql: Sql, sweepId: string): Promise<EvmSweepOutcome> {
  const sweep = await findEvmSweep(sql, sweepId);
  const outcome = sweep && landedOutcome(sweep);
  if (!outcome) throw new Error(`sweep ${sweepId} has no landing recorded`);
  return outcome;
}
