// The signer's EVM sweep activities: one sweeper per (chain, mode) whose relayer key, RPC endpoint and chain are
// configured (worker/evmSweepers.ts). A pair without one answers no_relayer and touches nothing.
import type { TokenSymbol } from '../../domain/chains';
import type { EvmChain } from '../../domain/evmSweepPlan';
import type { Mode } from '../../domain/session';
import { createEvmSweep, type EvmSweepDeps, type EvmSweepOutcome } from './evmSweep';
import { observeRelayerBalance } from './relayerBalance';

export interface PlanEvmSweepRequest {
  chain: EvmChain;
  token: TokenSymbol;
  mode: Mode;
  /** The workflow run planning it: a retried plan returns the batches it planned before. */
  runKey: string;
}

export type PlanEvmSweepAnswer = { status: 'planned'; sweepIds: string[] } | { status: 'no_relayer' };
export type EvmSweepAnswer = EvmSweepOutcome | { status: 'no_relayer' };

export type EvmSweeperKey = `${EvmChain}:${Mode}`;

export function createEvmSweepActivities(deps: { sweepers: Partial<Record<EvmSweeperKey, EvmSweepDeps>> }) {
  const sweepers = new Map(Object.entries(deps.sweepers).map(([key, sweeperDeps]) => [key, { deps: sweeperDeps, sweep: createEvmSweep(sweeperDeps) }]));
  const sweeperOf = (chain: EvmChain, mode: Mode) => sweepers.get(`${chain}:${mode}`)?.sweep;
  return {
    async planEvmSweep(request: PlanEvmSweepRequest): Promise<PlanEvmSweepAnswer> {
      const sweeper = sweepers.get(`${request.chain}:${request.mode}`);
      if (!sweeper) return { status: 'no_relayer' };
      // Every run reads the relayer's gas, swept or not: the gauge stays fresh on a quiet chain.
      await observeRelayerBalance(sweeper.deps);
      return { status: 'planned', sweepIds: await sweeper.sweep.plan(request.token, request.runKey) };
    },
    async advanceEvmSweep(request: { chain: EvmChain; mode: Mode; sweepId: string }): Promise<EvmSweepAnswer> {
      const sweeper = sweeperOf(request.chain, request.mode);
      return sweeper ? sweeper.advance(request.sweepId) : { status: 'no_relayer' };
    },
  };
}
