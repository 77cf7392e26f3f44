// Reads the blocks of a slot range: one getBlock per slot (transactionDetails 'accounts'), filtered in memory.
// The calls per slot do not depend on how many deposit addresses are watched; the price is bandwidth, since
// every block's transactions come back, not only the watched addresses' (see indexers/README.md for the
// trade-off against getSignaturesForAddress per address). A few slots are fetched at once so that following
// mainnet (~2.5 slots/s) does not hinge on one call's latency.
import type { SlotContent, SolanaBlock, SolanaRpc } from './solanaRpc';

export type ScannedSlot = { slot: bigint; kind: 'block'; block: SolanaBlock } | { slot: bigint; kind: 'skipped' };

/**
 * The slots from `from` to `to` in order, each a block or skipped, cut short before the first slot the node
 * cannot answer for yet. Throws when a call fails after its retries: nothing of the range is used then.
 */
export async function scanBlocks(rpc: SolanaRpc, from: bigint, to: bigint, concurrency: number): Promise<ScannedSlot[]> {
  const slots: bigint[] = [];
  for (let slot = from; slot <= to; slot++) slots.push(slot);
  const results: SlotContent<SolanaBlock>[] = new Array<SlotContent<SolanaBlock>>(slots.length);
  let next = 0;
  const worker = async () => {
    while (next < slots.length) {
      const index = next++;
      results[index] = await rpc.block(slots[index] as bigint);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, slots.length)) }, worker));
  const scanned: ScannedSlot[] = [];
  for (const [index, result] of results.entries()) {
    const slot = slots[index] as bigint;
    if (result.kind === 'unavailable') break;
    scanned.push(result.kind === 'block' ? { slot, kind: 'block', block: result.block } : { slot, kind: 'skipped' });
  }
  return scanned;
}
