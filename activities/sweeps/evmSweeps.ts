// The signer's EVM sweep activities: one sweeper per (chain, mode) whose relayer key, RPC endpoint and chain are
// configured (worker/evmSweepers.ts). A pair without one answers no_relayer and touches nothing.
import { log } from '@temporalio/activity';
import type { TokenSymbol } from '../../domain/chains';
import type { EvmChain } from '../../domain/evmSweepPlan';
import type { Mode } from '../../domain/session';
import { createEvmSweep, type EvmSweepDeps, type EvmSweepOutcome } from './evmSweep';

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
  const sweepers = new Map(Object.entries(deps.sweepers).map(([key, sweeperDeps]) => [key, createEvmSweep(sweeperDeps)]));
  const sweeperOf = (chain: EvmChain, mode: Mode) => sweepers.get(`${chain}:${mode}`);
  return {
    async planEvmSweep(request: PlanEvmSweepRequest): Promise<PlanEvmSweepAnswer> {
      const sweeper = sweeperOf(request.chain, request.mode);
      if (!sweeper) return { status: 'no_relayer' };
      const planned = await sweeper.plan(request.token, request.runKey);
      const { chain, token, mode } = request;
      const counts = { chain, token, mode, sweeps: planned.sweepIds.length, forwarderSweeps: planned.forwarderSweeps, hdSweeps: planned.hdSweeps };
      if (planned.hdWaiting === 0) log.info('evm sweep planned', counts);
      else log.warn(`evm sweep planned without HD addresses: they need EVM_DEPOSIT_COLLECTOR_${mode.toUpperCase()} and the mode's deposit mnemonic`, { ...counts, hdAddressesWaiting: planned.hdWaiting });
      return { status: 'planned', sweepIds: planned.sweepIds };
    },
    async advanceEvmSweep(request: { chain: EvmChain; mode: Mode; sweepId: string }): Promise<EvmSweepAnswer> {
      const sweeper = sweeperOf(request.chain, request.mode);
      return sweeper ? sweeper.advance(request.sweepId) : { status: 'no_relayer' };
    },
  };
}
