// inventory_withdrawals: held tokens an operator withdraws from a chain's collector to its rebalancing address
// (db/migrations/0014_inventory_withdrawals.sql). The CLI writes the row as the schema owner; the signer moves it on,
// each change naming the status it expects, so a retried pass that finds the work done changes nothing.
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export type InventoryWithdrawalStatus = 'requested' | 'submitted' | 'sent' | 'failed';

export interface InventoryWithdrawal {
  id: string;
  mode: Mode;
  chain: Chain;
  token: TokenSymbol;
  amount: bigint;
  toAddress: string;
  status: InventoryWithdrawalStatus;
  intentId: string | null;
  txHash: string | null;
  failure: string | null;
  requestedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  mode: Mode;
  chain: Chain;
  token: TokenSymbol;
  amount: string;
  to_address: string;
  status: InventoryWithdrawalStatus;
  intent_id: string | null;
  tx_hash: string | null;
  failure: string | null;
  requested_by: string;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): InventoryWithdrawal => ({
  id: r.id,
  mode: r.mode,
  chain: r.chain,
  token: r.token,
  amount: BigInt(r.amount),
  toAddress: r.to_address,
  status: r.status,
  intentId: r.intent_id,
  txHash: r.tx_hash,
  failure: r.failure,
  requestedBy: r.requested_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The new row, or undefined when one of the chain and mode is still open (the unique index). */
export async function insertInventoryWithdrawal(
  sql: Queryable,
  w: Pick<InventoryWithdrawal, 'id' | 'mode' | 'chain' | 'token' | 'amount' | 'toAddress' | 'requestedBy'>,
): Promise<InventoryWithdrawal | undefined> {
  const [row] = await sql<Row[]>`
    insert into inventory_withdrawals (id, mode, chain, token, amount, to_address, requested_by)
    values (${w.id}, ${w.mode}, ${w.chain}, ${w.token}, ${w.amount.toString()}, ${w.toAddress}, ${w.requestedBy})
    on conflict (mode, chain) where status in ('requested', 'submitted') do nothing
    returning *`;
  return row && fromRow(row);
}

export async function findInventoryWithdrawal(sql: Queryable, id: string): Promise<InventoryWithdrawal | undefined> {
  const [row] = await sql<Row[]>`select * from inventory_withdrawals where id = ${id}`;
  return row && fromRow(row);
}

export async function openInventoryWithdrawal(sql: Queryable, mode: Mode, chain: Chain): Promise<InventoryWithdrawal | undefined> {
  const [row] = await sql<Row[]>`
    select * from inventory_withdrawals where mode = ${mode} and chain = ${chain} and status in ('requested', 'submitted')`;
  return row && fromRow(row);
}

export async function listInventoryWithdrawals(sql: Queryable, mode: Mode, limit: number): Promise<InventoryWithdrawal[]> {
  const rows = await sql<Row[]>`select * from inventory_withdrawals where mode = ${mode} order by created_at desc limit ${limit}`;
  return rows.map(fromRow);
}

export async function setWithdrawalSubmitted(sql: Queryable, id: string, intentId: string): Promise<void> {
  await sql`update inventory_withdrawals set status = 'submitted', intent_id = ${intentId}, updated_at = now()
    where id = ${id} and status = 'requested'`;
}

export async function setWithdrawalSent(sql: Queryable, id: string, txHash: string): Promise<void> {
  await sql`update inventory_withdrawals set status = 'sent', tx_hash = ${txHash}, updated_at = now()
    where id = ${id} and status = 'submitted'`;
}

export async function setWithdrawalFailed(sql: Queryable, id: string, failure: string, txHash?: string): Promise<void> {
  await sql`update inventory_withdrawals set status = 'failed', failure = ${failure}, tx_hash = ${txHash ?? null}, updated_at = now()
    where id = ${id} and status in ('requested', 'submitted')`;
}

/** The mode's withdrawals written ahead and not yet posted, with their chain intents' status (reconciliation). */
export async function submittedWithdrawals(
  sql: Queryable,
  mode: Mode,
): Promise<Array<{ chain: Chain; token: TokenSymbol; amount: bigint; intentStatus: string }>> {
  const rows = await sql<{ chain: Chain; token: TokenSymbol; amount: string; intent_status: string }[]>`
    select w.chain, w.token, w.amount::text, ci.status as intent_status
    from inventory_withdrawals w join chain_intents ci on ci.id = w.intent_id
    where w.mode = ${mode} and w.status = 'submitted'`;
  return rows.map((r) => ({ chain: r.chain, token: r.token, amount: BigInt(r.amount), intentStatus: r.intent_status }));
}
