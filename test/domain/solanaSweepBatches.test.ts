// The sweep planner: only accounts holding USDC, each once, in derivation order, at most a transaction's worth a batch.
import { describe, expect, it } from 'vitest';
import { planSweepBatches, SWEEP_BATCH_LIMIT, type SweepCandidate } from '../../domain/solanaSweepBatches';

const candidate = (derivationIndex: number, balance: bigint | undefined): SweepCandidate => ({ owner: `owner${derivationIndex}`, derivationIndex, tokenAccount: `ata${derivationIndex}`, balance });

describe('planSweepBatches', () => {
  it('skips empty and closed accounts and cuts the rest into batches of the limit, in derivation order', () => {
    const candidates = [candidate(9, 5n), candidate(1, 0n), candidate(3, undefined), ...Array.from({ length: 13 }, (_, i) => candidate(20 + i, 1n))].reverse();
    const batches = planSweepBatches(candidates);
    expect(batches.map((b) => b.length)).toEqual([SWEEP_BATCH_LIMIT, SWEEP_BATCH_LIMIT, 14 - 2 * SWEEP_BATCH_LIMIT]);
    expect(batches.flat().map((c) => c.derivationIndex)).toEqual([9, ...Array.from({ length: 13 }, (_, i) => 20 + i)]);
  });

  it('an account named twice (two deposits to one address) is swept once', () => {
    expect(planSweepBatches([candidate(4, 7n), candidate(4, 7n)])).toEqual([[candidate(4, 7n)]]);
  });

  it('nothing to sweep is no batch; a limit below one is refused', () => {
    expect(planSweepBatches([candidate(1, 0n)])).toEqual([]);
    expect(() => planSweepBatches([candidate(1, 1n)], 0)).toThrow(RangeError);
  });
});
