// collector_sweeps and their addresses (db/migrations/0001_baseline.sql): a forwarder sweep's row on an EVM chain or Tron,
// or an HD address's sweep on either, written with its chain intent before anything is signed, and the deposit
// addresses it empties. Which addresses are due
// a sweep is decided here from the rows the indexer and the sessions wrote; what they hold is read from the chain by
// the caller. An EVM address is kept in lowercase hex, a Tron one in base58 `T…` as deposit_addresses has it.
import { ulid } from 'ulid';
import type { TokenSymbol } from '../../domain/chains/chains';
import { networkForMode } from '../../domain/session/payablePairs';
import { TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import type { EvmSweepBatch, EvmSweepCandidate, ForwarderChain } from '../../domain/sweeps/evmSweepPlan';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export type CollectorSweepStatus = 'pending' | 'submitted' | 'finalized' | 'failed';
/** A forwarder batch (sweepMany by the relayer) or one HD address (its own transfer after a top-up). */
export type CollectorSweepKind = 'forwarder' | 'hd';

export interface CollectorSweepAddress {
  address: string;
  /** A forwarder's CREATE2 salt; none for an HD address. */
  salt: string | null;
  sessionId: string;
  plannedBaseUnits: bigint;
  sweptBaseUnits: bigint | null;
}

export interface CollectorSweep {
  id: string;
  mode: Mode;
  chain: ForwarderChain;
  token: TokenSymbol;
  tokenAddress: string;
  kind: CollectorSweepKind;
  /** The factory a forwarder sweep calls; none for an HD sweep. */
  factory: string | null;
  /** Where an HD sweep sends the tokens; a forwarder sweep's destination is its factory's. */
  collector: string | null;
  status: CollectorSweepStatus;
  txHash: string | null;
  blockNumber: bigint | null;
  movedBaseUnits: bigint | null;
  /** Wei on an EVM chain, sun on Tron: what the relayer paid in the chain's native coin. */
  gasWei: bigint | null;
  /** An HD sweep's landed top-ups: how many, the native coin the relayer sent and the gas it paid for them. */
  topupRounds: number;
  topupWei: bigint | null;
  topupGasWei: bigint | null;
  createdAt: Date;
  landedAt: Date | null;
  addresses: CollectorSweepAddress[];
}

type Amounts = 'blockNumber' | 'movedBaseUnits' | 'gasWei' | 'topupWei' | 'topupGasWei';
type SweepRow = Omit<CollectorSweep, Amounts | 'addresses'> & Record<Amounts, string | null>;

const big = (value: string | null) => (value === null ? null : BigInt(value));

/** The newest sweeps first: one by id, or those of a mode and chain. */
export async function listCollectorSweeps(
  sql: Queryable,
  options: { id?: string; mode?: Mode; chain?: ForwarderChain; limit: number },
): Promise<CollectorSweep[]> {
  const rows = await sql<SweepRow[]>`
    select id, mode, chain, token, token_address as "tokenAddress", kind, factory, collector, status, tx_hash as "txHash", block_number::text as "blockNumber",
      moved_base_units::text as "movedBaseUnits", gas_wei::text as "gasWei", topup_rounds as "topupRounds", topup_wei::text as "topupWei", topup_gas_wei::text as "topupGasWei",
      created_at as "createdAt", landed_at as "landedAt"
    from collector_sweeps
    where (${options.id ?? null}::text is null or id = ${options.id ?? null}) and (${options.mode ?? null}::text is null or mode = ${options.mode ?? null})
      and (${options.chain ?? null}::text is null or chain = ${options.chain ?? null})
    order by created_at desc, id desc limit ${options.limit}`;
  if (rows.length === 0) return [];
  const addresses = await sql<
    Array<{ sweep_id: string; address: string; salt: string | null; session_id: string; planned: string; swept: string | null }>
  >`
    select sweep_id, address, salt, session_id, planned_base_units::text as planned, swept_base_units::text as swept
    from collector_sweep_addresses where sweep_id in ${sql(rows.map((r) => r.id))} order by address collate "C"`;
  return rows.map((r) => ({
    ...r,
    blockNumber: big(r.blockNumber),
    movedBaseUnits: big(r.movedBaseUnits),
    gasWei: big(r.gasWei),
    topupWei: big(r.topupWei),
    topupGasWei: big(r.topupGasWei),
    addresses: addresses
      .filter((a) => a.sweep_id === r.id)
      .map((a) => ({
        address: a.address,
        salt: a.salt,
        sessionId: a.session_id,
        plannedBaseUnits: BigInt(a.planned),
        sweptBaseUnits: big(a.swept),
      })),
  }));
}

export async function findCollectorSweep(sql: Queryable, id: string): Promise<CollectorSweep | undefined> {
  return (await listCollectorSweeps(sql, { id, limit: 1 }))[0];
}

export interface CollectorSweepScope {
  mode: Mode;
  chain: ForwarderChain;
  token: TokenSymbol;
}

/** Sweeps of a run (a retried plan), and every sweep of the scope that has not landed: both are finished before new ones. */
export async function collectorSweepsToFinish(
  sql: Queryable,
  scope: CollectorSweepScope,
  runKey: string,
): Promise<{ ofRun: string[]; unlanded: string[] }> {
  const rows = await sql<Array<{ id: string; run_key: string; status: CollectorSweepStatus }>>`
    select id, run_key, status from collector_sweeps
    where mode = ${scope.mode} and chain = ${scope.chain} and token = ${scope.token} and (run_key = ${runKey} or status in ('pending', 'submitted'))
    order by created_at, batch`;
  return {
    ofRun: rows.filter((r) => r.run_key === runKey).map((r) => r.id),
    unlanded: rows.filter((r) => r.status === 'pending' || r.status === 'submitted').map((r) => r.id),
  };
}

/** deposit_addresses' columns of a chain family, and the address as sweep rows and Swept events key it. */
function familyColumns(sql: Queryable, chain: ForwarderChain) {
  return chain === 'tron'
    ? { address: sql`da.tron_address`, key: sql`da.tron_address`, factory: sql`da.tron_factory`, scheme: sql`da.tron_scheme` }
    : { address: sql`da.evm_address`, key: sql`lower(da.evm_address)`, factory: sql`da.evm_factory`, scheme: sql`da.evm_scheme` };
}

/**
 * A deposit (aliased `d`) the treasury has already paid its merchant for, so it is the treasury's to collect: confirmed,
 * credited to its session's payment (not late), and that payment settled by a treasury payout
 * (docs/settlement.md#what-a-sweep-takes). Anything else at a deposit address (a late or dust deposit, one whose
 * session failed, expired unpaid or was refused its payout, or one still waiting for its payout) is not the treasury's.
 * Nor is the part of a deposit posted as owed back to its customer (refundDueOf).
 */
function owedToTreasury(sql: Queryable) {
  return sql`(d.stage = 'confirmed' and d.credited and not d.late and exists (
    select 1 from payments p join settlements st on st.payment_id = p.id
    where p.session_id = d.session_id and p.chain = d.chain and p.token = d.token and st.status = 'settled' and st.provider = ${TREASURY_PROVIDER}))`;
}

/**
 * The base units of a deposit (aliased `d`) its credit and settlement posted as refund due, the excess beyond the
 * session's price (docs/settlement.md#who-owns-each-unit): owed to the customer, so it leaves only through a refund.
 */
export function refundDueOf(sql: Queryable) {
  return sql`coalesce((select -sum(e.amount) from ledger_entries e
    where e.reference = 'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index and e.account = 'refund_due:' || d.chain), 0)`;
}

/**
 * Forwarder deposit addresses of the scope whose every deposit since the last sweep that emptied them is owed to the
 * treasury (owedToTreasury) in whole, no part of it refund due. A forwarder sweep takes the whole balance, so an address
 * that also holds money the treasury is not owed (refund due, or not yet paid out) waits rather than carry it into the treasury. An address a
 * sweep is taking now waits for it. The oldest deposits first, so a limit never starves them.
 */
export async function collectorSweepDue(
  sql: Queryable,
  scope: CollectorSweepScope,
  limit: number,
  /** Leaves out addresses whose sweep simulation failed this many times (sweep_address_failures). */
  maxFailures: number = Number.MAX_SAFE_INTEGER,
): Promise<Array<Omit<EvmSweepCandidate, 'salt' | 'balance'>>> {
  const da = familyColumns(sql, scope.chain);
  const rows = await sql<Array<{ address: string; factory: string; session_id: string }>>`
    with last_swept as (
      select a.address, max(array[s.block_number, s.last_log_index]) as at
      from collector_sweep_addresses a join collector_sweeps s on s.id = a.sweep_id
      where s.chain = ${scope.chain} and s.token = ${scope.token} and s.status = 'finalized'
      group by a.address
    )
    select ${da.key} as address, ${da.factory} as factory, da.session_id, min(d.created_at) as oldest
    from deposit_addresses da
    join deposits d on d.session_id = da.session_id and d.chain = ${scope.chain} and d.network = ${networkForMode(scope.mode)}
      and d.token = ${scope.token} and d.stage <> 'reorged' and lower(d.to_address) = lower(${da.address})
    left join last_swept l on l.address = ${da.key}
    where da.mode = ${scope.mode} and ${da.scheme} = 'forwarder'
      and (l.at is null or array[d.block_number, d.log_index::bigint] > l.at)
      and not exists (
        select 1 from collector_sweep_addresses a join collector_sweeps s on s.id = a.sweep_id
        where a.address = ${da.key} and s.chain = ${scope.chain} and s.token = ${scope.token} and s.status in ('pending', 'submitted'))
      and not exists (
        select 1 from sweep_address_failures f
        where f.mode = ${scope.mode} and f.chain = ${scope.chain} and f.token = ${scope.token} and f.address = ${da.key}
          and f.failures >= ${maxFailures})
    group by ${da.address}, ${da.factory}, da.session_id
    having bool_and(${owedToTreasury(sql)} and ${refundDueOf(sql)} = 0)
    order by oldest, address limit ${limit}`;
  return rows.map((r) => ({ address: r.address, factory: r.factory, sessionId: r.session_id }));
}

export interface HdSweepDue {
  address: string;
  sessionId: string;
  derivationIndex: number;
  /** What the treasury is owed at the address and no finalized sweep took yet: the most its sweep may move. */
  owed: bigint;
}

/**
 * HD deposit addresses of the scope owed a sweep: their deposits owed to the treasury (owedToTreasury) exceed what
 * finalized HD sweeps took from them (an HD transfer moves the amount it was planned with, so a deposit arriving
 * meanwhile stays owed, and money the treasury is not owed stays at the address), and none being taken now. The
 * oldest owed deposits first, so a limit never starves them.
 */
export async function hdSweepDue(sql: Queryable, scope: CollectorSweepScope, limit: number): Promise<HdSweepDue[]> {
  const da = familyColumns(sql, scope.chain);
  const rows = await sql<Array<{ address: string; session_id: string; derivation_index: string; owed: string }>>`
    with swept as (
      select a.address, sum(a.swept_base_units) as swept
      from collector_sweep_addresses a join collector_sweeps s on s.id = a.sweep_id
      where s.kind = 'hd' and s.chain = ${scope.chain} and s.token = ${scope.token} and s.status = 'finalized'
      group by a.address
    ), credited as (
      select ${da.key} as address, da.session_id, da.derivation_index, sum(d.amount_base_units - ${refundDueOf(sql)}) as credited, min(d.created_at) as oldest
      from deposit_addresses da
      join deposits d on d.session_id = da.session_id and d.chain = ${scope.chain} and d.network = ${networkForMode(scope.mode)}
        and d.token = ${scope.token} and lower(d.to_address) = lower(${da.address}) and ${owedToTreasury(sql)}
      where da.mode = ${scope.mode} and ${da.scheme} = 'hd'
      group by ${da.address}, da.session_id, da.derivation_index
    )
    select c.address, c.session_id, c.derivation_index, (c.credited - coalesce(s.swept, 0))::text as owed
    from credited c left join swept s on s.address = c.address
    where c.credited > coalesce(s.swept, 0)
      and not exists (
        select 1 from collector_sweep_addresses a join collector_sweeps u on u.id = a.sweep_id
        where a.address = c.address and u.chain = ${scope.chain} and u.token = ${scope.token} and u.status in ('pending', 'submitted'))
    order by c.oldest, c.address limit ${limit}`;
  return rows.map((r) => ({
    address: r.address,
    sessionId: r.session_id,
    derivationIndex: Number(r.derivation_index),
    owed: BigInt(r.owed),
  }));
}

/** The derivation index of an HD sweep's address on `chain` (its session's), which the signer derives its key from. */
export async function hdSweepDerivationIndex(sql: Queryable, chain: ForwarderChain, sweepId: string): Promise<number | undefined> {
  const da = familyColumns(sql, chain);
  const [row] = await sql<{ derivation_index: string }[]>`
    select da.derivation_index from collector_sweep_addresses a join deposit_addresses da on da.session_id = a.session_id
    where a.sweep_id = ${sweepId} and ${da.scheme} = 'hd'`;
  return row === undefined ? undefined : Number(row.derivation_index);
}

/**
 * One sweep per HD address of the plan, each its transfer's chain intent (written by `insertIntent`, the chain
 * family's, with the address as sender) and its row, in one transaction of the caller's; numbered in the run after
 * its `firstBatch - 1` forwarder batches. Addresses are kept as hdSweepDue answers them.
 */
export async function insertHdSweeps(
  sql: Queryable,
  plan: CollectorSweepScope & {
    runKey: string;
    tokenAddress: string;
    collector: string;
    firstBatch: number;
    addresses: Array<HdSweepDue & { balance: bigint }>;
    insertIntent: (sql: Queryable, id: string, hd: HdSweepDue & { balance: bigint }) => Promise<void>;
  },
): Promise<string[]> {
  const ids: string[] = [];
  for (const [offset, hd] of plan.addresses.entries()) {
    const id = `sweep-hd:${plan.chain}:${ulid()}`;
    await plan.insertIntent(sql, id, hd);
    await sql`insert into collector_sweeps (id, mode, chain, token, token_address, kind, collector, run_key, batch)
              values (${id}, ${plan.mode}, ${plan.chain}, ${plan.token}, ${plan.tokenAddress}, 'hd', ${plan.collector}, ${plan.runKey}, ${plan.firstBatch + offset})`;
    await sql`insert into collector_sweep_addresses (sweep_id, address, session_id, planned_base_units)
              values (${id}, ${hd.address}, ${hd.sessionId}, ${hd.balance.toString()})`;
    ids.push(id);
  }
  return ids;
}

/**
 * An HD sweep's landed top-up of `round` (1, 2, …), added to what earlier rounds sent; true when this call recorded
 * it (the caller posts the ledger in the same transaction), false when it was recorded before.
 */
export async function setHdTopUpLanded(
  sql: Queryable,
  id: string,
  round: number,
  landed: { sentWei: bigint; gasWei: bigint },
): Promise<boolean> {
  const updated = await sql`
    update collector_sweeps set topup_rounds = ${round}, topup_wei = coalesce(topup_wei, 0) + ${landed.sentWei.toString()},
      topup_gas_wei = coalesce(topup_gas_wei, 0) + ${landed.gasWei.toString()}, updated_at = now()
    where id = ${id} and kind = 'hd' and topup_rounds = ${round - 1}`;
  return updated.count > 0;
}

/**
 * The plan's batches, each a chain intent (written by `insertIntent`, the chain family's) and its sweep row, in one
 * transaction of the caller's.
 */
export async function insertCollectorSweeps(
  sql: Queryable,
  plan: CollectorSweepScope & {
    runKey: string;
    tokenAddress: string;
    batches: EvmSweepBatch[];
    insertIntent: (sql: Queryable, id: string, batch: EvmSweepBatch) => Promise<void>;
  },
): Promise<string[]> {
  const ids: string[] = [];
  for (const [batch, planned] of plan.batches.entries()) {
    const id = `sweep:${plan.chain}:${ulid()}`;
    await plan.insertIntent(sql, id, planned);
    await sql`insert into collector_sweeps (id, mode, chain, token, token_address, factory, run_key, batch)
              values (${id}, ${plan.mode}, ${plan.chain}, ${plan.token}, ${plan.tokenAddress}, ${planned.factory}, ${plan.runKey}, ${batch})`;
    const rows = planned.addresses.map((a) => ({
      sweep_id: id,
      address: a.address,
      salt: a.salt,
      session_id: a.sessionId,
      planned_base_units: a.balance.toString(),
    }));
    await sql`insert into collector_sweep_addresses ${sql(rows, 'sweep_id', 'address', 'salt', 'session_id', 'planned_base_units')}`;
    ids.push(id);
  }
  return ids;
}

export async function setCollectorSweepSubmitted(sql: Queryable, id: string, txHash: string): Promise<void> {
  await sql`update collector_sweeps set status = 'submitted', tx_hash = ${txHash}, updated_at = now() where id = ${id} and status in ('pending', 'submitted')`;
}

/**
 * The landed outcome and what each address gave, read from the receipt; true when this call recorded it (the
 * caller posts the ledger in the same transaction), false when it was recorded before.
 */
export async function setCollectorSweepLanded(
  sql: Queryable,
  id: string,
  landed: {
    status: 'finalized' | 'failed';
    txHash: string;
    blockNumber: bigint;
    lastLogIndex: number | undefined;
    moved: bigint;
    gasWei: bigint;
    perAddress: ReadonlyMap<string, bigint>;
  },
): Promise<boolean> {
  const updated = await sql`
    update collector_sweeps set status = ${landed.status}, tx_hash = ${landed.txHash}, block_number = ${landed.blockNumber.toString()},
      last_log_index = ${landed.lastLogIndex ?? null}, moved_base_units = ${landed.moved.toString()}, gas_wei = ${landed.gasWei.toString()},
      landed_at = now(), updated_at = now()
    where id = ${id} and status in ('pending', 'submitted')`;
  if (updated.count === 0) return false;
  for (const [address, amount] of landed.perAddress) {
    await sql`update collector_sweep_addresses set swept_base_units = ${amount.toString()} where sweep_id = ${id} and address = ${address}`;
  }
  return true;
}

/**
 * Per mode and chain (EVM or Tron), when the oldest deposit owed to the treasury (owedToTreasury) that no finalized sweep
 * has taken yet was recorded, over every token and address: forwarder addresses by collectorSweepDue's rule, HD
 * addresses by hdSweepDue's (the oldest deposit of an address owed more than its sweeps took). The age operators alert
 * on: it also grows while a forwarder address waits because it holds money the treasury is not owed beside it.
 */
export async function oldestUnsweptDeposits(sql: Queryable): Promise<Array<{ mode: Mode; chain: ForwarderChain; oldest: Date }>> {
  return sql<Array<{ mode: Mode; chain: ForwarderChain; oldest: Date }>>`
    with last_swept as (
      select s.chain, s.token, a.address, max(array[s.block_number, s.last_log_index]) as at
      from collector_sweep_addresses a join collector_sweeps s on s.id = a.sweep_id
      where s.status = 'finalized' and s.kind = 'forwarder'
      group by s.chain, s.token, a.address
    ),
    forwarders as (
      select session_id, mode, evm_address as address, lower(evm_address) as key, false as tron from deposit_addresses where evm_scheme = 'forwarder'
      union all
      select session_id, mode, tron_address, tron_address, true from deposit_addresses where tron_scheme = 'forwarder'
    ), forwarder as (
      select f.mode, d.chain, d.created_at
      from forwarders f
      join deposits d on d.session_id = f.session_id and ${owedToTreasury(sql)} and lower(d.to_address) = lower(f.address) and (d.chain = 'tron') = f.tron
      left join last_swept l on l.chain = d.chain and l.token = d.token and l.address = f.key
      where l.at is null or array[d.block_number, d.log_index::bigint] > l.at
    ), hd_swept as (
      select s.chain, s.token, a.address, sum(a.swept_base_units) as swept
      from collector_sweep_addresses a join collector_sweeps s on s.id = a.sweep_id
      where s.status = 'finalized' and s.kind = 'hd'
      group by s.chain, s.token, a.address
    ), hds as (
      select session_id, mode, evm_address as address, lower(evm_address) as key, false as tron from deposit_addresses where evm_scheme = 'hd'
      union all
      select session_id, mode, tron_address, tron_address, true from deposit_addresses where tron_scheme = 'hd'
    ), hd as (
      select h.mode, d.chain, d.token, h.key as address, sum(d.amount_base_units) as credited, min(d.created_at) as created_at
      from hds h
      join deposits d on d.session_id = h.session_id and ${owedToTreasury(sql)} and lower(d.to_address) = lower(h.address) and (d.chain = 'tron') = h.tron
      group by h.mode, d.chain, d.token, h.key
    )
    select mode, chain, min(created_at) as oldest from (
      select mode, chain, created_at from forwarder
      union all
      select h.mode, h.chain, h.created_at from hd h left join hd_swept s on s.chain = h.chain and s.token = h.token and s.address = h.address
      where h.credited > coalesce(s.swept, 0)
    ) unswept
    group by mode, chain`;
}
