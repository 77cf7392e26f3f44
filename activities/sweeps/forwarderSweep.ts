// Sweeps forwarder deposit addresses on one chain into the factory's collector (issue 14 item 3), on the signer: it
// alone holds the relayer key that pays the fees and is the factory's sweeper. The EVM chains and Tron share this: the
// TVM runs the same DepositFactory, so only the chain's writer, its balance reads and its receipts differ
// (evmSweep.ts, tronSweep.ts). A plan writes each batch as a sweep row and its chain intent (sweepMany(salts, token)
// on the address's own factory) before anything is signed; each advance is one resumable pass of the chain's writer,
// and a landed sweep is recorded, with its ledger postings in the same database transaction, from its Swept events
// and the fee the relayer paid.
import type { Queryable, Sql } from '../../db/client';
import type { ChainIntent } from '../../db/repositories/chainIntents';
import { findEvmSweep, evmSweepDue, evmSweepsToFinish, insertEvmSweeps, setEvmSweepLanded, setEvmSweepSubmitted, type EvmSweep, type EvmSweepScope } from '../../db/repositories/evmSweeps';
import { postLedger } from '../../db/repositories/ledger';
import { depositSalt } from '../../domain/addresses/depositSalt';
import type { TokenDeployment } from '../../domain/chainRegistry';
import type { TokenSymbol } from '../../domain/chains';
import { minimumBaseUnits, planEvmSweepBatches, type EvmSweepBatch, type ForwarderChain } from '../../domain/evmSweepPlan';
import { evmSweepLanded, tokenAsset } from '../../domain/ledger';
import type { Mode } from '../../domain/session';

export interface ForwarderSweepSettings {
  sql: Sql;
  mode: Mode;
  /** The chain's tokens on the mode's network (the chain registry's). */
  tokens: readonly TokenDeployment[];
  /** Whole tokens a run's total must reach before anything is swept (SWEEP_MIN_AMOUNT_<CHAIN>). */
  minimumWholeTokens: number;
  /** Deposit addresses per sweepMany (SWEEP_BATCH_SIZE). */
  batchSize: number;
}

/** What a landed sweep call tells, in the form sweep rows keep addresses in. */
export interface LandedSweep {
  blockNumber: bigint;
  /** The last Swept event's log index in its block, as the indexer numbers deposits' logs. */
  lastLogIndex: number | undefined;
  moved: bigint;
  perAddress: ReadonlyMap<string, bigint>;
  /** The native coin the relayer paid: wei, or sun on Tron. */
  fee: bigint;
}

/** What differs between chain families. */
export interface ForwarderSweepChain {
  chain: ForwarderChain;
  balanceOf(tokenAddress: string, owner: string): Promise<bigint>;
  /** Writes the batch's chain intent: sweepMany(salts, token) on the batch's factory, from the relayer. */
  insertIntent(sql: Queryable, id: string, tokenAddress: string, batch: EvmSweepBatch): Promise<void>;
  /** One pass of the chain's writer. */
  advance(id: string): Promise<{ intent: ChainIntent; deferred?: string }>;
  /** The landed call's Swept events of its factory and token (none when it failed) and its fee. */
  landed(sweep: EvmSweep, intent: ChainIntent): Promise<LandedSweep>;
}

export type ForwarderSweepOutcome =
  /** Nothing signed yet: fees are above the ceiling (`deferred`) or the pass stopped before signing. */
  | { status: 'pending'; deferred?: string }
  | { status: 'submitted'; txHash: string }
  | { status: 'finalized'; txHash: string; moved: string; gasWei: string }
  /** Reverted: the fee is spent and posted, the addresses are taken by the next run. */
  | { status: 'failed'; txHash: string; gasWei: string };

/** Addresses one plan reads from the chain, in batches' worth: a bound on the plan's time, the rest wait for the next run. */
const PLAN_BATCHES = 20;

function outcomeOf(sweep: EvmSweep): ForwarderSweepOutcome | undefined {
  const txHash = sweep.txHash ?? '';
  const gasWei = (sweep.gasWei ?? 0n).toString();
  if (sweep.status === 'finalized') return { status: 'finalized', txHash, moved: (sweep.movedBaseUnits ?? 0n).toString(), gasWei };
  if (sweep.status === 'failed') return { status: 'failed', txHash, gasWei };
  return undefined;
}

export function createForwarderSweep(settings: ForwarderSweepSettings, family: ForwarderSweepChain) {
  const { sql, mode } = settings;
  const { chain } = family;
  const tokenOf = (token: TokenSymbol) => settings.tokens.find((t) => t.symbol === token);

  /**
   * The sweeps this run is to carry for `token`: those it planned before (a retry), those of earlier runs that have
   * not landed, then new batches of what the due addresses hold now. One plan at a time per (chain, token, mode), so
   * two runs cannot put one address in two batches. A token the chain does not have plans nothing.
   */
  async function plan(token: TokenSymbol, runKey: string): Promise<string[]> {
    const deployment = tokenOf(token);
    if (!deployment) return [];
    const scope: EvmSweepScope = { mode, chain, token };
    return sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${`evm-sweep-plan:${chain}:${mode}:${token}`}, 0))`;
      const { ofRun, unlanded } = await evmSweepsToFinish(tx, scope, runKey);
      if (ofRun.length > 0) return [...new Set([...ofRun, ...unlanded])];
      const due = await evmSweepDue(tx, scope, settings.batchSize * PLAN_BATCHES);
      const candidates = await Promise.all(due.map(async (d) => ({ ...d, salt: depositSalt(d.sessionId), balance: await family.balanceOf(deployment.address, d.address) })));
      const batches = planEvmSweepBatches(candidates, { minimum: minimumBaseUnits(settings.minimumWholeTokens, deployment.decimals), batchSize: settings.batchSize });
      const planned = await insertEvmSweeps(tx, {
        ...scope,
        runKey,
        tokenAddress: deployment.address,
        batches,
        insertIntent: (q, id, batch) => family.insertIntent(q, id, deployment.address, batch),
      });
      return [...unlanded, ...planned];
    });
  }

  async function record(sweep: EvmSweep, status: 'finalized' | 'failed', intent: ChainIntent): Promise<ForwarderSweepOutcome> {
    const txHash = intent.signature ?? '';
    const landed = await family.landed(sweep, intent);
    await sql.begin(async (tx) => {
      const recorded = await setEvmSweepLanded(tx, sweep.id, { status, txHash, blockNumber: landed.blockNumber, lastLogIndex: landed.lastLogIndex, moved: landed.moved, gasWei: landed.fee, perAddress: landed.perAddress });
      if (!recorded) return;
      const moved = { [tokenAsset(sweep.token, sweep.chain)]: landed.moved };
      for (const posting of evmSweepLanded(sweep.id, sweep.mode, sweep.chain, { moved, gasWei: landed.fee })) await postLedger(tx, posting);
    });
    return outcomeOf((await findEvmSweep(sql, sweep.id)) as EvmSweep) as ForwarderSweepOutcome;
  }

  async function outcome(sweep: EvmSweep, progress: { intent: ChainIntent; deferred?: string }): Promise<ForwarderSweepOutcome> {
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
        return record(sweep, intent.status, intent);
    }
  }

  return {
    plan,
    /** One pass of a planned sweep; call again while it is pending or submitted. */
    async advance(sweepId: string): Promise<ForwarderSweepOutcome> {
      const sweep = await findEvmSweep(sql, sweepId);
      if (!sweep || sweep.mode !== mode || sweep.chain !== chain) throw new Error(`no ${mode} sweep ${sweepId} on ${chain}`);
      return outcomeOf(sweep) ?? outcome(sweep, await family.advance(sweepId));
    },
  };
}

export type ForwarderSweep = ReturnType<typeof createForwarderSweep>;
