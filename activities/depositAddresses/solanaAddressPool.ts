// The Solana deposit addresses the signer derives ahead (migration 0051): whenever it derives a session's address it
// makes sure the next POOL_AHEAD indexes' are stored too, so the sessions that take those indexes get their Solana
// address from the worker's own transaction instead of a signer activity and the workflow task that follows it.
// Indexes come from the mode's sequence; one a session skipped (a rolled-back reservation) is derived and never used.
import type { Queryable } from '../../db/client';
import type { Mode } from '../../domain/session';
import { deriveSolanaAddress } from './derive';

/** How far ahead of a derived index the pool reaches; refilled once less than half of it is left. */
export const POOL_AHEAD = 64;

export async function refillSolanaAddressPool(sql: Queryable, seed: Uint8Array, mode: Mode, index: number): Promise<number> {
  const [{ top }] = (await sql`select coalesce(max(derivation_index), -1)::int as top from solana_deposit_address_pool where mode = ${mode}`) as unknown as [{ top: number }];
  if (top >= index + POOL_AHEAD / 2) return 0;
  const rows = [];
  for (let next = Math.max(index + 1, top + 1); next <= index + POOL_AHEAD; next++) rows.push({ mode, derivation_index: next, address: deriveSolanaAddress(seed, next) });
  await sql`insert into solana_deposit_address_pool ${sql(rows)} on conflict do nothing`;
  return rows.length;
}

export async function pooledSolanaAddress(sql: Queryable, mode: Mode, index: number): Promise<string | undefined> {
  const [row] = await sql<{ address: string }[]>`select address from solana_deposit_address_pool where mode = ${mode} and derivation_index = ${index}`;
  return row?.address;
}
