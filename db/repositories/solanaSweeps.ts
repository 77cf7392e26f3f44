// solana_sweeps and their accounts (db/migrations/0001_baseline.sql): a sweep's row, written with its chain intent before anything is
// signed, and the accounts it empties. Which deposit addresses are due a sweep is decided here from the rows the
// indexer and the settlement wrote; what they hold is read from the chain by the caller.
import { ulid } from 'ulid';
import type { Mode } from '../../domain/wire/session';
import { sweepAmount, type SweepCandidate } from '../../domain/sweeps/solanaSweepBatches';
import { TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import type { Queryable } from '../client';
import { insertChainIntent } from './chainIntents';
import { refundDueOf } from './collectorSweeps';

export type SweepStatus = 'pending' | 'submitted' | 'confirmed' | 'finalized' | 'failed' | 'empty';

export interface SweepAccount {
  owner: string;
  derivationIndex: number;
  tokenAccount: string;
  plannedBaseUnits: bigint;
  sweptBaseUnits: bigint | null;
}

export interface Sweep {
  id: string;
  mode: Mode;
  treasury: string;
  mint: string;
  status: SweepStatus;
  signature: string | null;
  usdcSwept: bigint | null;
  feeLamports: bigint | null;
  rentLamports: bigint | null;
  createdAt: Date;
  landedAt: Date | null;
  accounts: SweepAccount[];
}

type Amounts = 'usdcSwept' | 'feeLamports' | 'rentLamports';
/** A solana_sweeps row as selected: its amounts as text, never through a JS number. */
type SweepRow = Omit<Sweep, Amounts | 'accounts'> & Record<Amounts, string | null>;

const big = (value: string | null) => (value === null ? null : BigInt(value));

async function withAccounts(sql: Queryable, rows: SweepRow[]): Promise<Sweep[]> {
  if (rows.length === 0) return [];
  const accounts = await sql<
    Array<{
      sweep_id: string;
      owner: string;
      derivation_index: string;
      token_account: string;
      planned_base_units: string;
      swept_base_units: string | null;
    }>
  >`
    select sweep_id, owner, derivation_index::text, token_account, planned_base_units::text, swept_base_units::text
    from solana_sweep_accounts where sweep_id in ${sql(rows.map((r) => r.id))} order by derivation_index, token_account`;
  return rows.map((r) => ({
    ...r,
    usdcSwept: big(r.usdcSwept),
    feeLamports: big(r.feeLamports),
    rentLamports: big(r.rentLamports),
    accounts: accounts
      .filter((a) => a.sweep_id === r.id)
      .map((a) => ({
        owner: a.owner,
        derivationIndex: Number(a.derivation_index),
        tokenAccount: a.token_account,
        plannedBaseUnits: BigInt(a.planned_base_units),
        sweptBaseUnits: big(a.swept_base_units),
      })),
  }));
}

/** The newest sweeps first: one by id, or those of one mode or both. */
export async function listSweeps(sql: Queryable, options: { id?: string; mode?: Mode; limit: number }): Promise<Sweep[]> {
  const rows = await sql<SweepRow[]>`
    select id, mode, treasury, mint, status, signature, usdc_swept::text as "usdcSwept", fee_lamports::text as "feeLamports",
      rent_lamports::text as "rentLamports", created_at as "createdAt", landed_at as "landedAt"
    from solana_sweeps
    where (${options.id ?? null}::text is null or id = ${options.id ?? null}) and (${options.mode ?? null}::text is null or mode = ${options.mode ?? null})
    order by created_at desc, id desc limit ${options.limit}`;
  return withAccounts(sql, rows);
}

export async function findSweep(sql: Queryable, id: string): Promise<Sweep | undefined> {
  return (await listSweeps(sql, { id, limit: 1 }))[0];
}

/** Sweeps of a run (a retried plan), and every sweep of the mode's treasury that has not landed: both are finished before new ones. */
export async function sweepsToFinish(
  sql: Queryable,
  mode: Mode,
  treasury: string,
  runKey: string,
): Promise<{ ofRun: string[]; unlanded: string[] }> {
  const rows = await sql<Array<{ id: string; run_key: string; status: SweepStatus }>>`
    select id, run_key, status from solana_sweeps
    where mode = ${mode} and treasury = ${treasury} and (run_key = ${runKey} or status in ('pending', 'submitted'))
    order by created_at, batch`;
  return {
    ofRun: rows.filter((r) => r.run_key === runKey).map((r) => r.id),
    unlanded: rows.filter((r) => r.status === 'pending' || r.status === 'submitted').map((r) => r.id),
  };
}

/**
 * Deposit addresses of `mode` for which the ledger holds USDC in deposits:solana for the treasury: their confirmed
 * deposits credited to payments the treasury settled (only those are posted), less the part of each posted as refund due
 * (refundDueOf), exceed what landed sweeps took from them. That part stays in the account until its refund takes it. An address a
 * sweep is taking now waits for it. The newest deposits first, so a limit never starves them. The token account
 * and its balance are the caller's to read.
 */
export async function sweepDue(
  sql: Queryable,
  mode: Mode,
  limit: number,
): Promise<Array<Omit<SweepCandidate, 'tokenAccount' | 'balance'>>> {
  const rows = await sql<Array<{ owner: string; derivation_index: string; owed: string }>>`
    with credited as (
      select da.solana_address as owner, da.derivation_index, sum(d.amount_base_units - ${refundDueOf(sql)}) as credited, max(d.created_at) as last_deposit
      from deposit_addresses da
      join payments p on p.session_id = da.session_id
      join settlements st on st.payment_id = p.id and st.status = 'settled' and st.provider = ${TREASURY_PROVIDER}
      join deposits d on d.session_id = da.session_id and d.chain = 'solana' and d.token = 'USDC' and d.stage = 'confirmed'
        and d.credited and d.to_address = da.solana_address
      where da.mode = ${mode} and da.solana_address is not null
      group by da.solana_address, da.derivation_index
    ), swept as (
      select a.owner, sum(a.swept_base_units) as swept
      from solana_sweep_accounts a join solana_sweeps s on s.id = a.sweep_id
      where s.status in ('confirmed', 'finalized') and a.swept_base_units is not null
      group by a.owner
    )
    select c.owner, c.derivation_index::text, (c.credited - coalesce(w.swept, 0))::text as owed
    from credited c left join swept w on w.owner = c.owner
    where c.credited > coalesce(w.swept, 0)
      and not exists (
        select 1 from solana_sweep_accounts a join solana_sweeps s on s.id = a.sweep_id
        where a.owner = c.owner and s.status in ('pending', 'submitted'))
    order by c.last_deposit desc, c.derivation_index limit ${limit}`;
  return rows.map((r) => ({ owner: r.owner, derivationIndex: Number(r.derivation_index), owed: BigInt(r.owed) }));
}

/** The plan's batches, each a chain intent and its sweep row, in one transaction of the caller's. */
export async function insertSweeps(
  sql: Queryable,
  plan: { mode: Mode; runKey: string; treasury: string; mint: string; batches: SweepCandidate[][] },
): Promise<string[]> {
  const ids: string[] = [];
  for (const [batch, accounts] of plan.batches.entries()) {
    const id = `sweep:solana:${ulid()}`;
    await insertChainIntent(sql, id);
    await sql`insert into solana_sweeps (id, mode, run_key, batch, treasury, mint) values (${id}, ${plan.mode}, ${plan.runKey}, ${batch}, ${plan.treasury}, ${plan.mint})`;
    const rows = accounts.map((a) => ({
      sweep_id: id,
      owner: a.owner,
      derivation_index: a.derivationIndex,
      token_account: a.tokenAccount,
      planned_base_units: sweepAmount(a.balance, a.owed).toString(),
    }));
    await sql`insert into solana_sweep_accounts ${sql(rows, 'sweep_id', 'owner', 'derivation_index', 'token_account', 'planned_base_units')}`;
    ids.push(id);
  }
  return ids;
}

export async function setSweepSubmitted(sql: Queryable, id: string, signature: string): Promise<void> {
  await sql`update solana_sweeps set status = 'submitted', signature = ${signature}, updated_at = now() where id = ${id} and status in ('pending', 'submitted')`;
}

export async function setSweepEmpty(sql: Queryable, id: string): Promise<void> {
  await sql`update solana_sweeps set status = 'empty', updated_at = now() where id = ${id} and status = 'pending'`;
}

/** The landed outcome and what each account gave, read from the transaction's balance deltas. */
export async function setSweepLanded(
  sql: Queryable,
  id: string,
  landed: {
    status: 'confirmed' | 'finalized' | 'failed';
    signature: string;
    usdc: bigint;
    feeLamports: bigint;
    rentLamports: bigint;
    swept: ReadonlyMap<string, bigint>;
  },
): Promise<void> {
  await sql`
    update solana_sweeps set status = ${landed.status}, signature = ${landed.signature}, usdc_swept = ${landed.usdc.toString()},
      fee_lamports = ${landed.feeLamports.toString()}, rent_lamports = ${landed.rentLamports.toString()},
      landed_at = coalesce(landed_at, now()), updated_at = now()
    where id = ${id}`;
  for (const [tokenAccount, amount] of landed.swept) {
    await sql`update solana_sweep_accounts set swept_base_units = ${amount.toString()} where sweep_id = ${id} and token_account = ${tokenAccount}`;
  }
}

/** A confirmed sweep's block is final: what it moved was recorded when it confirmed. */
export async function setSweepFinalized(sql: Queryable, id: string): Promise<void> {
  await sql`update solana_sweeps set status = 'finalized', updated_at = now() where id = ${id} and status = 'confirmed'`;
}
