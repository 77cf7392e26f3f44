// chain_intents: the write-ahead record of every transaction the service signs (migration 0034). Each change
// names the state it expects, so two processes working on one intent cannot both move it.
import type { ChainIntentStatus } from '../../domain/chainIntent';
import type { Queryable } from '../client';

export interface ChainIntent {
  id: string;
  status: ChainIntentStatus;
  /** Base64 wire transaction: the exact bytes every broadcast sends. */
  wireTransaction: string | null;
  signature: string | null;
  lastValidBlockHeight: bigint | null;
  supersededSignatures: string[];
  slot: bigint | null;
  error: unknown;
}

interface ChainIntentRow {
  id: string;
  status: ChainIntentStatus;
  wire_transaction: string | null;
  signature: string | null;
  last_valid_block_height: bigint | null;
  superseded_signatures: string[];
  slot: bigint | null;
  error: unknown;
}

const toIntent = (r: ChainIntentRow): ChainIntent => ({
  id: r.id,
  status: r.status,
  wireTransaction: r.wire_transaction,
  signature: r.signature,
  lastValidBlockHeight: r.last_valid_block_height,
  supersededSignatures: r.superseded_signatures,
  slot: r.slot,
  error: r.error,
});

export async function insertChainIntent(sql: Queryable, id: string): Promise<void> {
  await sql`insert into chain_intents (id, chain) values (${id}, 'solana') on conflict (id) do nothing`;
}

export async function findChainIntent(sql: Queryable, id: string, options: { lock?: boolean } = {}): Promise<ChainIntent | undefined> {
  const [row] = options.lock
    ? await sql<ChainIntentRow[]>`select * from chain_intents where id = ${id} for update`
    : await sql<ChainIntentRow[]>`select * from chain_intents where id = ${id}`;
  return row && toIntent(row);
}

export async function recordSigned(sql: Queryable, id: string, signed: { wireTransaction: string; signature: string; lastValidBlockHeight: bigint }): Promise<void> {
  await sql`
    update chain_intents set status = 'signed', wire_transaction = ${signed.wireTransaction}, signature = ${signed.signature},
      last_valid_block_height = ${signed.lastValidBlockHeight.toString()}, signed_at = now(), updated_at = now()
    where id = ${id} and status = 'prepared'`;
}

export async function recordBroadcast(sql: Queryable, id: string, signature: string): Promise<void> {
  await sql`
    update chain_intents set status = 'broadcast', broadcast_at = coalesce(broadcast_at, now()), updated_at = now()
    where id = ${id} and signature = ${signature} and status = 'signed'`;
}

export async function recordLanded(sql: Queryable, id: string, signature: string, landed: { status: 'confirmed' | 'finalized' | 'failed'; slot: bigint; error?: unknown }): Promise<void> {
  await sql`
    update chain_intents set status = ${landed.status}, slot = ${landed.slot.toString()},
      error = ${landed.error === undefined ? null : sql.json(landed.error as Parameters<typeof sql.json>[0])},
      confirmed_at = case when ${landed.status} in ('confirmed', 'finalized') then coalesce(confirmed_at, now()) end,
      finalized_at = case when ${landed.status} = 'finalized' then now() end, updated_at = now()
    where id = ${id} and signature = ${signature} and status in ('signed', 'broadcast', 'confirmed')`;
}

/** The signed transaction is provably dead: keep its signature for matching and clear the way for a new one. */
export async function recordSuperseded(sql: Queryable, id: string, signature: string): Promise<void> {
  await sql`
    update chain_intents set status = 'prepared', superseded_signatures = array_append(superseded_signatures, signature),
      signature = null, wire_transaction = null, last_valid_block_height = null, updated_at = now()
    where id = ${id} and signature = ${signature} and status in ('signed', 'broadcast')`;
}

/** The intent whose transaction, current or superseded, has this signature: the service signed it. */
export async function findChainIntentIdBySignature(sql: Queryable, signature: string): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`select id from chain_intents where signature = ${signature} or ${signature} = any(superseded_signatures) limit 1`;
  return row?.id;
}
