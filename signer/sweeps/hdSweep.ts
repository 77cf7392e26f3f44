// What the HD sweeps of both chain families share (evmHdSweep.ts, tronHdSweep.ts): the plan of one sweep per HD
// address owed one and holding something, and the recording of a landed top-up and a landed transfer with their ledger
// postings in the same database transaction, each once. How the address's key signs, what the top-up is and where
// the landing is read from are the family's.
import type { Queryable, Sql } from '../../db/client';
import {
  hdSweepDue,
  insertHdSweeps,
  setHdTopUpLanded,
  setCollectorSweepLanded,
  type HdSweepDue,
  type CollectorSweep,
} from '../../db/repositories/collectorSweeps';
import { postLedger } from '../../db/repositories/ledger';
import { holdingsToSweep } from '../../domain/sweeps/evmSweepPlan';
import { sweepAmount } from '../../domain/sweeps/solanaSweepBatches';
import { evmSweepLanded, hdGasToppedUp, hdSweepGasPaid, tokenAsset } from '../../domain/ledger/ledger';
import { recordedOutcome, type EvmSweepOutcome, type HdSweeps } from './forwarderSweep';

export interface HdSweepPlanning {
  /** Where the tokens go; unset (or no seed): the due addresses wait, counted. */
  collector: string | undefined;
  depositSeed: Uint8Array | undefined;
  balanceOf(tokenAddress: string, owner: string): Promise<bigint>;
  /** Writes the address's transfer(collector, amount) as its chain intent, the address as sender. */
  insertIntent(sql: Queryable, id: string, hd: HdSweepDue & { balance: bigint }, collector: string): Promise<void>;
}

/**
 * The scope's HD addresses owed a sweep and holding something, one sweep each, numbered from `firstBatch`. Each moves
 * what the address holds up to what the treasury is owed there: a late or refund-due deposit beside it stays.
 */
export async function planHdSweeps(
  tx: Queryable,
  scope: Parameters<HdSweeps['plan']>[1],
  planning: HdSweepPlanning,
): ReturnType<HdSweeps['plan']> {
  const due = await hdSweepDue(tx, scope, scope.limit);
  const { collector } = planning;
  if (!collector || !planning.depositSeed) return { sweepIds: [], waiting: due.length };
  const candidates = await Promise.all(
    due.map(async (d) => ({ ...d, balance: sweepAmount(await planning.balanceOf(scope.deployment.address, d.address), d.owed) })),
  );
  const sweepIds = await insertHdSweeps(tx, {
    ...scope,
    tokenAddress: scope.deployment.address,
    collector,
    addresses: holdingsToSweep(candidates, scope.minimum),
    insertIntent: (q, id, hd) => planning.insertIntent(q, id, hd, collector),
  });
  return { sweepIds, waiting: 0 };
}

/**
 * A landed top-up of `round` and its postings, once: what it sent (nothing when it failed) and the relayer's fee. A
 * failed top-up lands the sweep as failed (its addresses are taken by the next run).
 */
export async function recordHdTopUp(
  sql: Sql,
  sweep: CollectorSweep,
  topUp: { id: string; round: number; status: 'finalized' | 'failed'; txHash: string; blockNumber: bigint },
  landed: { sentWei: bigint; gasWei: bigint },
): Promise<void> {
  await sql.begin(async (tx) => {
    if (!(await setHdTopUpLanded(tx, sweep.id, topUp.round, landed))) return;
    for (const posting of hdGasToppedUp(topUp.id, sweep.mode, sweep.chain, landed)) await postLedger(tx, posting);
    if (topUp.status === 'failed') {
      await setCollectorSweepLanded(tx, sweep.id, {
        status: 'failed',
        txHash: topUp.txHash,
        blockNumber: topUp.blockNumber,
        lastLogIndex: undefined,
        moved: 0n,
        gasWei: 0n,
        perAddress: new Map(),
      });
    }
  });
}

/** A landed transfer and its postings, once: what the token's Transfer events moved to the collector and the fee the address paid. */
export async function recordHdTransfer(
  sql: Sql,
  sweep: CollectorSweep,
  landed: {
    status: 'finalized' | 'failed';
    txHash: string;
    blockNumber: bigint;
    moved: bigint;
    lastLogIndex: number | undefined;
    fee: bigint;
  },
): Promise<EvmSweepOutcome> {
  const from = sweep.addresses[0]?.address ?? '';
  await sql.begin(async (tx) => {
    const row = {
      status: landed.status,
      txHash: landed.txHash,
      blockNumber: landed.blockNumber,
      lastLogIndex: landed.lastLogIndex,
      moved: landed.moved,
      gasWei: landed.fee,
      perAddress: new Map([[from, landed.moved]]),
    };
    if (!(await setCollectorSweepLanded(tx, sweep.id, row))) return;
    const postings = [
      ...evmSweepLanded(sweep.id, sweep.mode, sweep.chain, { moved: { [tokenAsset(sweep.token, sweep.chain)]: landed.moved }, gasWei: 0n }),
      hdSweepGasPaid(sweep.id, sweep.mode, sweep.chain, landed.fee),
    ];
    for (const posting of postings) if (posting) await postLedger(tx, posting);
  });
  return recordedOutcome(sql, sweep.id);
}
