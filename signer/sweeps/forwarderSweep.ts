// Sweeps deposit addresses on one chain into the collector, on the signer: it alone holds the
// relayer key that pays the fees and is the factory's sweeper. The EVM chains and Tron share this: the TVM runs the
// same DepositFactory, so only the chain's writer, its balance reads and its receipts differ (evmSweep.ts,
// tronSweep.ts). A plan writes each batch as a sweep row and its chain intent (sweepMany(salts, token) on the
// address's own factory) before anything is signed; each advance is one resumable pass of the chain's writer, and a
// landed sweep is recorded, with its ledger postings in the same database transaction, from its Swept events and the
// fee the relayer paid. A chain with HD deposit addresses from before the forwarders (evmHdSweep.ts, tronHdSweep.ts)
// plans them in the same plan, one sweep each, and advance hands a sweep of kind 'hd' to it.
import type { Queryable, Sql } from '../../db/client';
import type { ChainIntent } from '../../db/repositories/chainIntents';
import {
  findCollectorSweep,
  collectorSweepDue,
  collectorSweepsToFinish,
  insertCollectorSweeps,
  setCollectorSweepLanded,
  setCollectorSweepSubmitted,
  type CollectorSweep,
  type CollectorSweepScope,
} from '../../db/repositories/collectorSweeps';
import { postLedger } from '../../db/repositories/ledger';
import { lockUntilCommit } from '../../db/repositories/locks';
import { clearSweepAddressFailures, recordSweepAddressFailure } from '../../db/repositories/sweepAddressFailures';
import type { ModeDepositForwarders } from '../../domain/addresses/depositForwarder';
import { depositSalt } from '../../domain/addresses/depositSalt';
import { judgeOwnDepositAddress } from '../../domain/addresses/ownDepositAddress';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import type { TokenSymbol } from '../../domain/chains/chains';
import {
  minimumBaseUnits,
  planEvmSweepBatches,
  type EvmSweepBatch,
  type EvmSweepCandidate,
  type ForwarderChain,
} from '../../domain/sweeps/evmSweepPlan';
import { failingAddresses } from '../../domain/sweeps/sweepFailures';
import { evmSweepLanded, tokenAsset } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';

export interface ForwarderSweepSettings {
  sql: Sql;
  mode: Mode;
  /** The chain's tokens on the mode's network (the chain registry's). */
  tokens: readonly TokenDeployment[];
  /** Whole tokens a run's total must reach before anything is swept (SWEEP_MIN_AMOUNT_<CHAIN>). */
  minimumWholeTokens: number;
  /** Deposit addresses per sweepMany (SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Failed simulations after which an address is no longer planned until an operator clears it (SWEEP_MAX_ADDRESS_FAILURES). */
  maxAddressFailures: number;
  /**
   * The mode's factories and implementations as the signer itself was configured (EVM_DEPOSIT_FACTORY_<MODE>,
   * TRON_DEPOSIT_FACTORY_<MODE>): the factory a sweep calls is the deposit_addresses row's, which the worker's role
   * writes, so only a row of these contracts, its address their clone for the session's salt, is planned.
   */
  forwarders: ModeDepositForwarders;
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
  /**
   * Simulates the batch's sweepMany from the relayer: undefined when it would succeed, else the revert's reason. A
   * chain without it plans its batches unsimulated. Throws when the node does not answer: that is no revert.
   */
  simulate?(tokenAddress: string, batch: EvmSweepBatch): Promise<string | undefined>;
  /** One pass of the chain's writer. */
  advance(id: string): Promise<{ intent: ChainIntent; deferred?: string }>;
  /** The landed call's Swept events of its factory and token (none when it failed) and its fee. */
  landed(sweep: CollectorSweep, intent: ChainIntent): Promise<LandedSweep>;
}

/** What a pass of a sweep answers, forwarder or HD alike. */
export type EvmSweepOutcome =
  /** Nothing signed yet: fees are above the ceiling (`deferred`) or the pass stopped before signing. */
  | { status: 'pending'; deferred?: string }
  /** Signed and sent; `deferred` says why a transaction the node cannot find is not signed again (an operator's to see). */
  | { status: 'submitted'; txHash: string; deferred?: string }
  | { status: 'finalized'; txHash: string; moved: string; gasWei: string }
  /** Reverted: the fee is spent and posted, the addresses are taken by the next run. */
  | { status: 'failed'; txHash: string; gasWei: string };

/** A chain's HD deposit addresses, swept one sweep (of kind 'hd') each beside the forwarder batches. */
export interface HdSweeps {
  /** The scope's HD addresses owed a sweep, written as sweeps numbered from `firstBatch`, or how many wait for a collector and a seed. */
  plan(
    tx: Queryable,
    scope: CollectorSweepScope & { runKey: string; deployment: TokenDeployment; minimum: bigint; limit: number; firstBatch: number },
  ): Promise<{ sweepIds: string[]; waiting: number }>;
  /** One step of an unlanded HD sweep. */
  advance(sweep: CollectorSweep): Promise<EvmSweepOutcome>;
}

/** A forwarder address a plan left out because its sweep reverts alone. */
export interface SkippedSweepAddress {
  address: string;
  sessionId: string;
  reason: string;
  /** Failed simulations so far; from maxAddressFailures on, no plan takes it until an operator clears it. */
  failures: number;
  excluded: boolean;
}

/** A forwarder row a plan left out because it is not the service's own: another factory, or not its clone for the session. */
export interface ForeignSweepAddress {
  address: string;
  sessionId: string;
  reason: string;
}

/** What a plan wrote: every sweep the run is to carry, and how many HD addresses wait for a collector or a seed. */
export interface EvmSweepPlanned {
  sweepIds: string[];
  forwarderSweeps: number;
  hdSweeps: number;
  hdWaiting: number;
  skipped: SkippedSweepAddress[];
  foreign: ForeignSweepAddress[];
}

/** Addresses one plan reads from the chain, in batches' worth: a bound on the plan's time, the rest wait for the next run. */
const PLAN_BATCHES = 20;

/** The outcome the sweep's row holds once it has landed. */
export function landedOutcome(sweep: CollectorSweep): EvmSweepOutcome | undefined {
  const txHash = sweep.txHash ?? '';
  const gasWei = (sweep.gasWei ?? 0n).toString();
  if (sweep.status === 'finalized') return { status: 'finalized', txHash, moved: (sweep.movedBaseUnits ?? 0n).toString(), gasWei };
  if (sweep.status === 'failed') return { status: 'failed', txHash, gasWei };
  return undefined;
}

/** The outcome a landing just recorded (or an earlier pass recorded) in the sweep's row. */
export async function recordedOutcome(sql: Sql, sweepId: string): Promise<EvmSweepOutcome> {
  const sweep = await findCollectorSweep(sql, sweepId);
  const outcome = sweep && landedOutcome(sweep);
  if (!outcome) throw new Error(`sweep ${sweepId} has no landing recorded`);
  return outcome;
}

/**
 * The outcome of a pass of the sweep's intent (or of the intent it waits for), recording the landing through
 * `record` (with its ledger postings) the first time a pass sees it final.
 */
export async function progressOutcome(
  sql: Sql,
  sweep: CollectorSweep,
  progress: { intent: ChainIntent; deferred?: string },
  record: (status: 'finalized' | 'failed', intent: ChainIntent) => Promise<EvmSweepOutcome>,
): Promise<EvmSweepOutcome> {
  const { intent } = progress;
  switch (intent.status) {
    case 'prepared':
      return progress.deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred: progress.deferred };
    case 'signed':
    case 'broadcast':
    case 'confirmed':
      await setCollectorSweepSubmitted(sql, sweep.id, intent.signature ?? '');
      return {
        status: 'submitted',
        txHash: intent.signature ?? '',
        ...(progress.deferred === undefined ? {} : { deferred: progress.deferred }),
      };
    case 'finalized':
    case 'failed':
      return record(intent.status, intent);
  }
}

export function createForwarderSweep(settings: ForwarderSweepSettings, family: ForwarderSweepChain, hd?: HdSweeps) {
  const { sql, mode } = settings;
  const { chain } = family;
  const tokenOf = (token: TokenSymbol) => settings.tokens.find((t) => t.symbol === token);

  /** The due rows whose address the signer's own forwarder contracts give, and the others with why not. */
  function ownForwarderRows<R extends { address: string; factory: string; sessionId: string }>(due: readonly R[]) {
    const own: R[] = [];
    const foreign: ForeignSweepAddress[] = [];
    for (const row of due) {
      const verdict = judgeOwnDepositAddress(
        { ...row, mode, family: chain === 'tron' ? 'tron' : 'evm', derivationIndex: 0, scheme: 'forwarder' },
        mode,
        { seed: undefined, forwarders: settings.forwarders },
      );
      if (verdict.kind === 'own') own.push(row);
      else foreign.push({ address: row.address, sessionId: row.sessionId, reason: verdict.reason });
    }
    return { own, foreign };
  }

  /**
   * The sweeps this run is to carry for `token`: those it planned before (a retry), those of earlier runs that have
   * not landed, then new batches of what the due forwarder addresses hold now and one sweep per due HD address. One
   * plan at a time per (chain, token, mode), so two runs cannot put one address in two sweeps. A token the chain does
   * not have plans nothing.
   */
  async function plan(token: TokenSymbol, runKey: string): Promise<EvmSweepPlanned> {
    const nothing = (sweepIds: string[]): EvmSweepPlanned => ({
      sweepIds,
      forwarderSweeps: 0,
      hdSweeps: 0,
      hdWaiting: 0,
      skipped: [],
      foreign: [],
    });
    const deployment = tokenOf(token);
    if (!deployment) return nothing([]);
    const scope: CollectorSweepScope = { mode, chain, token };
    return sql.begin(async (tx) => {
      await lockUntilCommit(tx, `evm-sweep-plan:${chain}:${mode}:${token}`);
      const { ofRun, unlanded } = await collectorSweepsToFinish(tx, scope, runKey);
      if (ofRun.length > 0) return nothing([...new Set([...ofRun, ...unlanded])]);
      const limit = settings.batchSize * PLAN_BATCHES;
      const minimum = minimumBaseUnits(settings.minimumWholeTokens, deployment.decimals);
      const { own, foreign } = ownForwarderRows(await collectorSweepDue(tx, scope, limit, settings.maxAddressFailures));
      const candidates = await Promise.all(
        own.map(async (d) => ({ ...d, salt: depositSalt(d.sessionId), balance: await family.balanceOf(deployment.address, d.address) })),
      );
      const { batches, skipped } = await isolatedBatches(tx, scope, deployment.address, candidates, minimum);
      const planned = await insertCollectorSweeps(tx, {
        ...scope,
        runKey,
        tokenAddress: deployment.address,
        batches,
        insertIntent: (q, id, batch) => family.insertIntent(q, id, deployment.address, batch),
      });
      const hdPlanned = hd
        ? await hd.plan(tx, { ...scope, runKey, deployment, minimum, limit, firstBatch: planned.length })
        : { sweepIds: [], waiting: 0 };
      return {
        sweepIds: [...unlanded, ...planned, ...hdPlanned.sweepIds],
        forwarderSweeps: planned.length,
        hdSweeps: hdPlanned.sweepIds.length,
        hdWaiting: hdPlanned.waiting,
        skipped,
        foreign,
      };
    });
  }

  /**
   * The plan's batches without the addresses whose sweep reverts alone, each counted in sweep_address_failures:
   * one blacklisted address would otherwise revert its whole sweepMany on every run. The rest are planned again
   * (the minimum judged without them) until every batch simulates; those that did are forgiven their failures.
   */
  async function isolatedBatches<C extends EvmSweepCandidate>(
    tx: Queryable,
    scope: CollectorSweepScope,
    tokenAddress: string,
    candidates: readonly C[],
    minimum: bigint,
  ): Promise<{ batches: EvmSweepBatch<C>[]; skipped: SkippedSweepAddress[] }> {
    const skipped: SkippedSweepAddress[] = [];
    let remaining = candidates;
    for (;;) {
      const batches = planEvmSweepBatches(remaining, { minimum, batchSize: settings.batchSize });
      const simulate = family.simulate;
      if (!simulate) return { batches, skipped };
      const failing = new Map<C, string>();
      for (const batch of batches) {
        const found = await failingAddresses(batch.addresses, (addresses) =>
          simulate(tokenAddress, { factory: batch.factory, addresses: [...addresses] }),
        );
        for (const [candidate, reason] of found) failing.set(candidate, reason);
      }
      if (failing.size === 0) {
        await clearSweepAddressFailures(
          tx,
          scope,
          batches.flatMap((b) => b.addresses.map((a) => a.address)),
        );
        return { batches, skipped };
      }
      for (const [candidate, reason] of failing) {
        const failures = await recordSweepAddressFailure(tx, scope, candidate.address, reason);
        skipped.push({
          address: candidate.address,
          sessionId: candidate.sessionId,
          reason,
          failures,
          excluded: failures >= settings.maxAddressFailures,
        });
      }
      remaining = remaining.filter((candidate) => !failing.has(candidate));
    }
  }

  async function record(sweep: CollectorSweep, status: 'finalized' | 'failed', intent: ChainIntent): Promise<EvmSweepOutcome> {
    const txHash = intent.signature ?? '';
    const landed = await family.landed(sweep, intent);
    await sql.begin(async (tx) => {
      const recorded = await setCollectorSweepLanded(tx, sweep.id, {
        status,
        txHash,
        blockNumber: landed.blockNumber,
        lastLogIndex: landed.lastLogIndex,
        moved: landed.moved,
        gasWei: landed.fee,
        perAddress: landed.perAddress,
      });
      if (!recorded) return;
      const moved = { [tokenAsset(sweep.token, sweep.chain)]: landed.moved };
      for (const posting of evmSweepLanded(sweep.id, sweep.mode, sweep.chain, { moved, gasWei: landed.fee })) await postLedger(tx, posting);
    });
    return recordedOutcome(sql, sweep.id);
  }

  return {
    plan,
    /** One pass of a planned sweep of either kind; call again while it is pending or submitted. */
    async advance(sweepId: string): Promise<EvmSweepOutcome> {
      const sweep = await findCollectorSweep(sql, sweepId);
      if (!sweep || sweep.mode !== mode || sweep.chain !== chain) throw new Error(`no ${mode} sweep ${sweepId} on ${chain}`);
      const landed = landedOutcome(sweep);
      if (landed) return landed;
      if (sweep.kind === 'hd') {
        if (!hd) throw new Error(`${chain} has no HD sweeps, yet sweep ${sweepId} is one`);
        return hd.advance(sweep);
      }
      return progressOutcome(sql, sweep, await family.advance(sweepId), (status, intent) => record(sweep, status, intent));
    },
  };
}

export type ForwarderSweep = ReturnType<typeof createForwarderSweep>;
