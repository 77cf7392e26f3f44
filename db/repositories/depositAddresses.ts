// deposit_addresses, their per-mode index sequences and the pool of Solana addresses the signer derives ahead: one
// derivation index per session, never reused, and the addresses stored for it.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

/** Each mode's own index sequence: test and live addresses come from separate seeds. */
export const DEPOSIT_INDEX_SEQUENCE: Record<Mode, string> = { live: 'deposit_address_index_seq', test: 'deposit_address_test_index_seq' };

export type DepositIndexRow = {
  index: number;
  reserved: boolean;
  evm_address: string | null;
  tron_address: string | null;
  solana_address: string | null;
  pooled_solana: string | null;
};

/**
 * One statement: the session's stored row, else (when `reservable`) a new index from the mode's sequence, taken only
 * when the session has none, with the pooled Solana address for whichever index it is. Undefined if neither.
 */
export async function storedOrReservedDepositIndex(
  sql: Queryable,
  sessionId: string,
  mode: Mode,
  reservable: boolean,
): Promise<DepositIndexRow | undefined> {
  const [row] = await sql<DepositIndexRow[]>`
    with stored as (
      select derivation_index, evm_address, tron_address, solana_address from deposit_addresses where session_id = ${sessionId}
    ), reserved as (
      select nextval(${DEPOSIT_INDEX_SEQUENCE[mode]}) as derivation_index where ${reservable} and not exists (select from stored)
    ), session_index as (
      select derivation_index, evm_address, tron_address, solana_address, false as reserved from stored
      union all
      select derivation_index, null, null, null, true from reserved
    )
    select i.derivation_index::int as index, i.reserved, i.evm_address, i.tron_address, i.solana_address, p.address as pooled_solana
    from session_index i
    left join solana_deposit_address_pool p on p.mode = ${mode} and p.derivation_index = i.derivation_index`;
  return row;
}

export interface DepositAddressRow {
  sessionId: string;
  mode: Mode;
  index: number;
  evm: string;
  tron: string;
  solana: string | null;
  evmScheme: string;
  evmFactory: string | null;
  tronScheme: string;
  tronFactory: string | null;
}

/**
 * A plain insert, not awaited here so the caller can pipeline it: should another attempt have stored the session's
 * row meanwhile, this one fails and its retry reads that row, so a session never has two.
 */
export function insertDepositAddresses(sql: Queryable, row: DepositAddressRow) {
  return sql`
    insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address, solana_address, evm_scheme, evm_factory, tron_scheme, tron_factory)
    values (${row.sessionId}, ${row.mode}, ${row.index}, ${row.evm}, ${row.tron}, ${row.solana},
            ${row.evmScheme}, ${row.evmFactory}, ${row.tronScheme}, ${row.tronFactory})`;
}

/** A stored address never changes, so a customer who was shown it can always pay it; not awaited here. */
export function setSolanaDepositAddress(sql: Queryable, sessionId: string, solana: string) {
  return sql`update deposit_addresses set solana_address = ${solana} where session_id = ${sessionId} and solana_address is null`;
}

/** The last index the mode's sequence handed out (-1 before the first). */
export async function lastIssuedDepositIndex(sql: Queryable, mode: Mode): Promise<number> {
  const [{ issued }] = (await sql`
    select (case when is_called then last_value else last_value - 1 end)::int as issued from ${sql(DEPOSIT_INDEX_SEQUENCE[mode])}`) as unknown as [
    { issued: number },
  ];
  return issued;
}

/** The highest index the mode's pool holds (-1 when empty). */
export async function lastPooledSolanaIndex(sql: Queryable, mode: Mode): Promise<number> {
  const [{ top }] =
    (await sql`select coalesce(max(derivation_index), -1)::int as top from solana_deposit_address_pool where mode = ${mode}`) as unknown as [
      { top: number },
    ];
  return top;
}

/** Indexes already pooled (by another signer) keep their address: a derivation is the same wherever it ran. */
export async function insertPooledSolanaAddresses(
  sql: Queryable,
  rows: ReadonlyArray<{ mode: Mode; derivation_index: number; address: string }>,
): Promise<void> {
  await sql`insert into solana_deposit_address_pool ${sql(rows as Array<{ mode: Mode; derivation_index: number; address: string }>)} on conflict do nothing`;
}
