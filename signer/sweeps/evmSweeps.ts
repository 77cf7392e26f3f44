// The signer's sweep activities: one sweeper per (EVM chain, mode) whose relayer key, RPC endpoint and chain are
// configured (signer/config/evmSweepers.ts), which sweeps HD deposit addresses too, and one per mode for Tron whose relayer
// key and HTTP API are (signer/config/tronSweepers.ts). A pair without one answers no_relayer and touches nothing.
import { log } from '@temporalio/activity';
import type { TokenSymbol } from '../../domain/chains/chains';
import type { EvmChain, ForwarderChain } from '../../domain/sweeps/evmSweepPlan';
import type { Mode } from '../../domain/wire/session';
import { createEvmSweep, type EvmSweepDeps } from './evmSweep';
import type { ForwarderSweep, EvmSweepOutcome } from './forwarderSweep';
import { createTronSweep, type TronSweepDeps } from './tronSweep';
import { observeRelayerBalance, observeTronRelayerBalance } from './relayerBalance';

export interface PlanEvmSweepRequest {
  chain: ForwarderChain;
  token: TokenSymbol;
  mode: Mode;
  /** The workflow run planning it: a retried plan returns the batches it planned before. */
  runKey: string;
}

export type PlanEvmSweepAnswer = { status: 'planned'; sweepIds: string[] } | { status: 'no_relayer' };
export type EvmSweepAnswer = EvmSweepOutcome | { status: 'no_relayer' };

export type EvmSweeperKey = `${EvmChain}:${Mode}`;

export function createEvmSweepActivities(deps: {
  sweepers: Partial<Record<EvmSweeperKey, EvmSweepDeps>>;
  tronSweepers?: Partial<Record<Mode, TronSweepDeps>>;
}) {
  const sweepers = new Map<string, ForwarderSweep>([
    ...Object.entries(deps.sweepers).map(([key, sweeperDeps]) => [key, createEvmSweep(sweeperDeps)] as const),
    ...Object.entries(deps.tronSweepers ?? {}).map(([mode, sweeperDeps]) => [`tron:${mode}`, createTronSweep(sweeperDeps)] as const),
  ]);
  const sweeperOf = (chain: ForwarderChain, mode: Mode) => sweepers.get(`${chain}:${mode}`);
  return {
    async planEvmSweep(request: PlanEvmSweepRequest): Promise<PlanEvmSweepAnswer> {
      const sweeper = sweeperOf(request.chain, request.mode);
      if (!sweeper) return { status: 'no_relayer' };
      // Every run reads the relayer's gas, swept or not: the gauge stays fresh on a quiet chain, and reconciliation
      // learns the relayer's address from the first run.
      const evmRelayer = deps.sweepers[`${request.chain}:${request.mode}` as EvmSweeperKey];
      const tronRelayer = request.chain === 'tron' ? deps.tronSweepers?.[request.mode] : undefined;
      if (evmRelayer) await observeRelayerBalance(evmRelayer);
      if (tronRelayer) await observeTronRelayerBalance(tronRelayer);
      const planned = await sweeper.plan(request.token, request.runKey);
      const { chain, token, mode } = request;
      const counts = {
        chain,
        token,
        mode,
        sweeps: planned.sweepIds.length,
        forwarderSweeps: planned.forwarderSweeps,
        hdSweeps: planned.hdSweeps,
      };
      if (planned.hdWaiting === 0) log.info('sweep planned', counts);
      else
        log.warn(
          `sweep planned without HD addresses: they need ${chain === 'tron' ? 'TRON' : 'EVM'}_DEPOSIT_COLLECTOR_${mode.toUpperCase()} and the mode's deposit mnemonic`,
          { ...counts, hdAddressesWaiting: planned.hdWaiting },
        );
      for (const skipped of planned.skipped) {
        log.error(
          skipped.excluded
            ? 'sweep left out a deposit address whose sweep reverts, and plans it no more until an operator clears it'
            : 'sweep left out a deposit address whose sweep reverts',
          { chain, token, mode, ...skipped },
        );
      }
      for (const foreign of planned.foreign) {
        log.error("sweep left out a deposit address that is not the service's own: its row names another factory, or not its clone", {
          chain,
          token,
          mode,
          ...foreign,
        });
      }
      return { status: 'planned', sweepIds: planned.sweepIds };
    },
    async advanceEvmSweep(request: { chain: ForwarderChain; mode: Mode; sweepId: string }): Promise<EvmSweepAnswer> {
      const sweeper = sweeperOf(request.chain, request.mode);
      if (!sweeper) return { status: 'no_relayer' };
      const outcome = await sweeper.advance(request.sweepId);
      // A transaction the node cannot find that is not proven dead waits for an operator rather than being signed twice.
      if (outcome.status === 'submitted' && outcome.deferred !== undefined)
        log.error('sweep transaction waits: not proven dead, so nothing is signed in its place', { ...request, reason: outcome.deferred });
      return outcome;
    },
  };
}
