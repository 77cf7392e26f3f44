// The sweep planner: only accounts holding USDC, each once, in derivation order, at most a transaction's worth a batch.
import { describe, expect, it } from 'vitest';
import { planSweepBatches, SWEEP_BATCH_LIMIT, sweepAmount, type SweepCandidate } from '../../../domain/sweeps/solanaSweepBatches';

const candidate = (derivationIndex: number, balance: bigint | undefined, owed = 100n): SweepCandidate => ({
  owner: `owner${derivationIndex}`,
  derivationIndex,
  tokenAccount: `ata${derivationIndex}`,
  balance,
  owed,
});

describe('planSweepBatches', () => {
  it('skips empty and closed accounts and cuts the rest into batches of the limit, in derivation order', () => {
    const candidates = [
      candidate(9, 5n),
      candidate(1, 0n),
      candidate(3, undefined),
      ...Array.from({ length: 13 }, (_, i) => candidate(20 + i, 1n)),
    ].reverse();
    const batches = planSweepBatches(candidates);
    expect(batches.map((b) => b.length)).toEqual([SWEEP_BATCH_LIMIT, SWEEP_BATCH_LIMIT, 14 - 2 * SWEEP_BATCH_LIMIT]);
    expect(batches.flat().map((c) => c.derivationIndex)).toEqual([9, ...Array.from({ length: 13 }, (_, i) => 20 + i)]);
  });

  it('an account named twice (two deposits to one address) is swept once', () => {
    expect(planSweepBatches([candidate(4, 7n), candidate(4, 7n)])).toEqual([[candidate(4, 7n)]]);
  });

  it('takes what an account holds up to what the ledger holds for it: a late deposit stays for its refund', () => {
    expect(sweepAmount(7n, 100n)).toBe(7n);
    expect(sweepAmount(150n, 100n)).toBe(100n);
    expect(sweepAmount(undefined, 100n)).toBe(0n);
    expect(sweepAmount(50n, 0n)).toBe(0n);
    expect(
      planSweepBatches([candidate(1, 50n, 0n), candidate(2, 50n, 10n)])
        .flat()
        .map((c) => c.derivationIndex),
    ).toEqual([2]);
  });

  it('nothing to sweep is no batch; a limit below one is refused', () => {
    expect(planSweepBatches([candidate(1, 0n)])).toEqual([]);
    expect(() => planSweepBatches([candidate(1, 1n)], 0)).toThrow(RangeError);
  });
});
