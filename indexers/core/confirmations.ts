// Confirmation depth of every deposit still waiting, counted from block numbers against the indexer's cursor
// (the newest block it has verified), not a node's `finalized` tag, which not every chain's nodes honour.
// Depth counts the deposit's own block: a transfer in the cursor block has 1 confirmation.
import type { Sql } from '../../db/client';
import type { BlockRef, ChainKey } from './cursor';
import { markConfirmed, markReorged, recentReorgedDeposits, reviveDeposit, setConfirmations, unconfirmedDeposits } from './depositStore';
import type { ChainMetrics } from './metrics';

export interface ConfirmationDeps {
  sql: Sql;
  key: ChainKey;
  required: number;
  /** The hash the chain has now at `number`; null when the node has no such block. */
  canonicalHash(number: bigint): Promise<string | null>;
  metrics: ChainMetrics;
  /** How far below the tip reorged deposits are re-checked. */
  recheckDepth: number;
}

export function confirmationDepth(tip: bigint, blockNumber: bigint): number {
  return tip >= blockNumber ? Number(tip - blockNumber + 1n) : 0;
}

/**
 * Updates depths and confirms the deposits that reached `required`, after checking their block is still on the
 * canonical chain; one that is not is marked reorged. Recently reorged deposits back on the canonical chain
 * are detected again. Returns the lowest block found reorged, so the caller rescans from there and picks up
 * whatever replaced it.
 */
export async function trackConfirmations(deps: ConfirmationDeps, tip: BlockRef): Promise<bigint | undefined> {
  const hashes = new Map<bigint, string | null>();
  const canonical = async (number: bigint) => {
    let hash = hashes.get(number);
    if (hash === undefined) {
      hash = await deps.canonicalHash(number);
      hashes.set(number, hash);
    }
    return hash;
  };
  // A reorged deposit whose block is on the canonical chain after all (the chain flipped back, or another
  // writer set the stage) would otherwise never be confirmed: the cursor has passed it. Bring it back.
  const recheckFrom = tip.number > BigInt(deps.recheckDepth) ? tip.number - BigInt(deps.recheckDepth) : 0n;
  for (const deposit of await recentReorgedDeposits(deps.sql, deps.key, recheckFrom)) {
    if (deposit.blockNumber <= tip.number && (await canonical(deposit.blockNumber)) === deposit.blockHash) {
      await reviveDeposit(deps.sql, deposit, deposit.blockHash);
    }
  }
  let lowestReorged: bigint | undefined;
  for (const deposit of await unconfirmedDeposits(deps.sql, deps.key)) {
    const depth = confirmationDepth(tip.number, deposit.blockNumber);
    if (depth < deps.required) {
      if (depth !== deposit.confirmations) await setConfirmations(deps.sql, deposit, depth);
      continue;
    }
    const hash = await canonical(deposit.blockNumber);
    // No block at that height although the cursor is past it: the node is inconsistent; decide next tick.
    if (hash === null) continue;
    if (hash === deposit.blockHash) {
      if (await markConfirmed(deps.sql, deposit, deposit.blockHash, depth)) deps.metrics.depositsConfirmed += 1;
    } else if (await markReorged(deps.sql, deposit, deposit.blockHash)) {
      deps.metrics.depositsReorged += 1;
      if (lowestReorged === undefined || deposit.blockNumber < lowestReorged) lowestReorged = deposit.blockNumber;
    }
  }
  return lowestReorged;
}
