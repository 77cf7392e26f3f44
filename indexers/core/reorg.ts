// Reorg handling shared by the chain families: find the newest remembered block still on the canonical chain,
// withdraw the deposits above it whose blocks are gone, and move the cursor back there so the range is scanned
// again (finding whatever replaced them). Confirmed deposits are never withdrawn: their depth is the security
// margin docs/api.md#chains-and-tokens sets per chain.
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import { recentBlockHashes, saveCursor, type BlockRef, type ChainKey } from './cursor';
import { markReorged, unconfirmedDeposits, type DepositRow } from './depositStore';
import type { ChainMetrics } from './metrics';

export interface ReorgDeps {
  sql: Sql;
  key: ChainKey;
  canonicalHash(number: bigint): Promise<string | null>;
  metrics: ChainMetrics;
  logger: Logger;
  /** How many block hashes the cursor keeps; also the deepest rewind when none of them is canonical. */
  keepHashes: number;
}

/** The newest remembered block at or below `below` that is still canonical. */
export async function findCommonAncestor(deps: ReorgDeps, below: bigint): Promise<BlockRef> {
  for (const remembered of await recentBlockHashes(deps.sql, deps.key, below)) {
    const hash = await deps.canonicalHash(remembered.number);
    if (hash === remembered.hash) return remembered;
  }
  // Deeper than any remembered hash: beyond every confirmation depth docs/api.md#chains-and-tokens sets. Rewind as far as the
  // window reaches rather than stop, and say so loudly.
  const number = below > BigInt(deps.keepHashes) ? below - BigInt(deps.keepHashes) : 0n;
  const hash = await deps.canonicalHash(number);
  if (hash === null) throw new Error(`cannot rewind ${deps.key.chain}:${deps.key.network}: no block ${number}`);
  deps.logger.error(
    { chain: deps.key.chain, network: deps.key.network, rewoundTo: number.toString() },
    'reorg deeper than the remembered block hashes',
  );
  return { number, hash };
}

/** Moves the cursor back to `ancestor`, marking reorged every unconfirmed deposit above it whose block is gone. */
export async function rewindTo(deps: ReorgDeps, ancestor: BlockRef): Promise<void> {
  const gone: DepositRow[] = [];
  for (const deposit of await unconfirmedDeposits(deps.sql, deps.key)) {
    if (deposit.blockNumber <= ancestor.number) continue;
    if ((await deps.canonicalHash(deposit.blockNumber)) !== deposit.blockHash) gone.push(deposit);
  }
  await deps.sql.begin(async (tx) => {
    for (const deposit of gone) {
      if (await markReorged(tx, deposit, deposit.blockHash)) deps.metrics.depositsReorged += 1;
    }
    await saveCursor(tx, deps.key, ancestor, deps.keepHashes);
  });
  deps.metrics.reorgs += 1;
  deps.metrics.cursor = ancestor.number;
  deps.logger.warn(
    { chain: deps.key.chain, network: deps.key.network, rewoundTo: ancestor.number.toString(), withdrawn: gone.length },
    'reorg: cursor moved back',
  );
}
