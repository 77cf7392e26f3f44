// Sweeps forwarder deposit addresses on one EVM chain into the factory's collector (issue 14 item 3), on the signer:
// it alone holds the relayer key that pays the gas and is the factory's sweeper. A plan writes each batch as a sweep
// row and its chain intent (sweepMany(salts, token) on the address's own factory) before anything is signed; each
// advance is one resumable pass of the EVM chain writer, and a landed sweep is recorded, with its ledger postings in
// the same database transaction, from the receipt's Swept events and gas. The same plan takes the scope's HD deposit
// addresses, one sweep each, and advance dispatches on the sweep's kind (evmHdSweep.ts).
import { encodeFunctionData, erc20Abi, parseEventLogs, type Address, type Hash, type Hex } from 'viem';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { findEvmSweep, evmSweepDue, evmSweepsToFinish, insertEvmSweeps, setEvmSweepLanded, type EvmSweep, type EvmSweepScope } from '../../db/repositories/evmSweeps';
import { postLedger } from '../../db/repositories/ledger';
import { depositSalt } from '../../domain/addresses/depositSalt';
import type { TokenSymbol } from '../../domain/chains';
import type { TokenDeployment } from '../../domain/chainRegistry';
import { minimumBaseUnits, planEvmSweepBatches, sweptAmounts, type EvmChain, type EvmSweepBatch } from '../../domain/evmSweepPlan';
import { evmSweepLanded, tokenAsset } from '../../domain/ledger';
import { createEvmChainWriter } from '../chainWrites/evmChainWriter';
import { createEvmHdSweep, type EvmHdSweepDeps } from './evmHdSweep';
import { landedOutcome, progressOutcome, recordedOutcome, type EvmSweepOutcome } from './evmSweepOutcome';

export type { EvmSweepOutcome } from './evmSweepOutcome';

export interface EvmSweepDeps extends EvmHdSweepDeps {
  chain: EvmChain;
  /** The chain's tokens on the mode's network (the chain registry's). */
  tokens: readonly TokenDeployment[];
  /** Whole tokens a run's total must reach before anything is swept (SWEEP_MIN_AMOUNT_<CHAIN>). */
  minimumWholeTokens: number;
  /** Deposit addresses per sweepMany (SWEEP_BATCH_SIZE). */
  batchSize: number;
}

/** What a plan wrote: every sweep the run is to carry, and how many HD addresses wait for a collector or a seed. */
export interface EvmSweepPlanned {
  sweepIds: string[];
  forwarderSweeps: number;
  hdSweeps: number;
  hdWaiting: number;
}

/** Addresses one plan reads from the chain, in batches' worth: a bound on the plan's time, the rest wait for the next run. */
const PLAN_BATCHES = 20;

const sweepCall = (tokenAddress: string) => (batch: EvmSweepBatch) => ({
  to: batch.factory,
  data: encodeFunctionData({ abi: depositFactory.abi, functionName: 'sweepMany', args: [batch.addresses.map((a) => a.salt as Hex), tokenAddress as Address] }),
  value: '0',
});

export function createEvmSweep(deps: EvmSweepDeps) {
  const writer = createEvmChainWriter(deps);
  const hdSweep = createEvmHdSweep(deps, writer);
  const tokenOf = (token: TokenSymbol) => deps.tokens.find((t) => t.symbol === token);

  const balanceOf = (token: string, owner: string) =>
    deps.client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] });

  /**
   * The sweeps this run is to carry for `token`: those it planned before (a retry), those of earlier runs that have
   * not landed, then new batches of what the due forwarder addresses hold now and one sweep per due HD address. One
   * plan at a time per (chain, token, mode), so two runs cannot put one address in two sweeps. A token the chain does
   * not have plans nothing.
   */
  async function plan(token: TokenSymbol, runKey: string): Promise<EvmSweepPlanned> {
    const nothing = (sweepIds: string[]): EvmSweepPlanned => ({ sweepIds, forwarderSweeps: 0, hdSweeps: 0, hdWaiting: 0 });
    const deployment = tokenOf(token);
    if (!deployment) return nothing([]);
    const scope: EvmSweepScope = { mode: deps.mode, chain: deps.chain, token };
    return deps.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${`evm-sweep-plan:${deps.chain}:${deps.mode}:${token}`}, 0))`;
      const { ofRun, unlanded } = await evmSweepsToFinish(tx, scope, runKey);
      if (ofRun.length > 0) return nothing([...new Set([...ofRun, ...unlanded])]);
      const limit = deps.batchSize * PLAN_BATCHES;
      const minimum = minimumBaseUnits(deps.minimumWholeTokens, deployment.decimals);
      const due = await evmSweepDue(tx, scope, limit);
      const candidates = await Promise.all(due.map(async (d) => ({ ...d, salt: depositSalt(d.sessionId), balance: await balanceOf(deployment.address, d.address) })));
      const batches = planEvmSweepBatches(candidates, { minimum, batchSize: deps.batchSize });
      const planned = await insertEvmSweeps(tx, { ...scope, runKey, tokenAddress: deployment.address, sender: deps.account.address, batches, call: sweepCall(deployment.address) });
      const hd = await hdSweep.plan(tx, { ...scope, runKey, deployment, minimum, limit, firstBatch: planned.length });
      return { sweepIds: [...unlanded, ...planned, ...hd.sweepIds], forwarderSweeps: planned.length, hdSweeps: hd.sweepIds.length, hdWaiting: hd.waiting };
    });
  }

  /** What the landed call moved (its factory's Swept events; none when it reverted) and the gas the relayer paid. */
  async function record(sweep: EvmSweep, status: 'finalized' | 'failed', txHash: string): Promise<EvmSweepOutcome> {
    const receipt = await deps.client.getTransactionReceipt({ hash: txHash as Hash });
    const events = status === 'failed' ? [] : parseEventLogs({ abi: depositFactory.abi, eventName: 'Swept', logs: receipt.logs });
    const swept = sweptAmounts(
      events.map((log) => ({ emitter: log.address, forwarder: log.args.forwarder, token: log.args.token, amount: log.args.amount, logIndex: log.logIndex })),
      sweep.factory ?? '',
      sweep.tokenAddress,
    );
    const gasWei = receipt.gasUsed * receipt.effectiveGasPrice;
    await deps.sql.begin(async (tx) => {
      const recorded = await setEvmSweepLanded(tx, sweep.id, { status, txHash, blockNumber: receipt.blockNumber, lastLogIndex: swept.lastLogIndex, moved: swept.total, gasWei, perAddress: swept.perAddress });
      if (!recorded) return;
      const moved = { [tokenAsset(sweep.token, sweep.chain)]: swept.total };
      for (const posting of evmSweepLanded(sweep.id, sweep.mode, sweep.chain, { moved, gasWei })) await postLedger(tx, posting);
    });
    return recordedOutcome(deps.sql, sweep.id);
  }

  return {
    plan,
    /** One pass of a planned sweep of either kind; call again while it is pending or submitted. */
    async advance(sweepId: string): Promise<EvmSweepOutcome> {
      const sweep = await findEvmSweep(deps.sql, sweepId);
      if (!sweep || sweep.mode !== deps.mode || sweep.chain !== deps.chain) throw new Error(`no ${deps.mode} sweep ${sweepId} on ${deps.chain}`);
      const landed = landedOutcome(sweep);
      if (landed) return landed;
      if (sweep.kind === 'hd') return hdSweep.advance(sweep);
      return progressOutcome(deps.sql, sweep, await writer.advance(sweepId), (status, txHash) => record(sweep, status, txHash));
    },
  };
}
