// The signer's sweep activities: per mode, the treasury that receives the sweep and the seed whose keys sign for the
// deposit accounts (docs/settlement.md#r4-keys-in-the-signer-alone). A mode without a treasury or a seed answers
// no_treasury and touches nothing.
import type { Mode } from '../../domain/wire/session';
import type { DepositSeeds } from '../../domain/addresses/depositSeed';
import type { TreasuryPayoutDeps } from '../payouts/treasuryPayout';
import { createSolanaSweep, type SweepOutcome } from './solanaSweep';

export interface PlanSweepRequest {
  mode: Mode;
  /** The workflow run planning it: a retried plan returns the batches it planned before. */
  runKey: string;
}

export type PlanSweepAnswer = { status: 'planned'; sweepIds: string[] } | { status: 'no_treasury' };
export type SweepAnswer = SweepOutcome | { status: 'no_treasury' };

export function createSolanaSweepActivities(deps: { depositSeeds: DepositSeeds; treasuries: Partial<Record<Mode, TreasuryPayoutDeps>> }) {
  const sweeperOf = (mode: Mode) => {
    const treasury = deps.treasuries[mode];
    const depositSeed = deps.depositSeeds[mode];
    return treasury && depositSeed && createSolanaSweep({ ...treasury, depositSeed, mode });
  };
  const sweepers = { test: sweeperOf('test'), live: sweeperOf('live') };
  return {
    async planSolanaSweep(request: PlanSweepRequest): Promise<PlanSweepAnswer> {
      const sweeper = sweepers[request.mode];
      return sweeper ? { status: 'planned', sweepIds: await sweeper.plan(request.runKey) } : { status: 'no_treasury' };
    },
    async advanceSolanaSweep(request: { mode: Mode; sweepId: string }): Promise<SweepAnswer> {
      const sweeper = sweepers[request.mode];
      return sweeper ? sweeper.advance(request.sweepId) : { status: 'no_treasury' };
    },
  };
}
