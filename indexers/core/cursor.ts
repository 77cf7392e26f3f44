// Where an indexer has got to on one chain and network, and the block hashes it passed through on the way,
// kept in Postgres so a restart resumes exactly there and a reorg can be traced back to a common ancestor.
import type { Queryable } from '../../db/client';
import type { Chain } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';

export interface BlockRef {
  number: bigint;
  hash: string;
}

export interface ChainKey {
  chain: Chain;
  network: Network;
}

export async function loadCursor(sql: Queryable, key: ChainKey): Promise<BlockRef | undefined> {
  const [row] = await sql<{ block_number: bigint; block_hash: string }[]>`
    select block_number, block_hash from indexer_cursors where chain = ${key.chain} and network = ${key.network}`;
  return row ? { number: row.block_number, hash: row.block_hash } : undefined;
}

/**
 * Moves the cursor to `block` (forward after a scan, backward after a reorg) and remembers its hash. Call it in
 * the transaction that stores the range's deposits: either both happen or neither.
 */
export async function saveCursor(sql: Queryable, key: ChainKey, block: BlockRef, keepHashes: number): Promise<void> {
  await sql`
    insert into indexer_cursors (chain, network, block_number, block_hash)
    values (${key.chain}, ${key.network}, ${block.number.toString()}, ${block.hash})
    on conflict (chain, network) do update set block_number = excluded.block_number, block_hash = excluded.block_hash, updated_at = now()`;
  await sql`
    delete from indexer_block_hashes
    where chain = ${key.chain} and network = ${key.network}
      and (block_number > ${block.number.toString()} or block_number < ${(block.number - BigInt(keepHashes)).toString()})`;
  await sql`
    insert into indexer_block_hashes (chain, network, block_number, block_hash)
    values (${key.chain}, ${key.network}, ${block.number.toString()}, ${block.hash})
    on conflict (chain, network, block_number) do update set block_hash = excluded.block_hash`;
}

/** Remembered hashes at or below `atOrBelow`, newest first: the candidates for the common ancestor. */
export async function recentBlockHashes(sql: Queryable, key: ChainKey, atOrBelow: bigint): Promise<BlockRef[]> {
  const rows = await sql<{ block_number: bigint; block_hash: string }[]>`
    select block_number, block_hash from indexer_block_hashes
    where chain = ${key.chain} and network = ${key.network} and block_number <= ${atOrBelow.toString()}
    order by block_number desc`;
  return rows.map((row) => ({ number: row.block_number, hash: row.block_hash }));
}

/**
 * Forgets where the indexer got to on a chain that was replaced by a new one with the same chain id: the fresh
 * local chain of each `npm start`, whose blocks the stored cursor and hashes no longer describe.
 */
export async function resetCursor(sql: Queryable, key: ChainKey): Promise<void> {
  await sql`delete from indexer_block_hashes where chain = ${key.chain} and network = ${key.network}`;
  await sql`delete from indexer_cursors where chain = ${key.chain} and network = ${key.network}`;
}
