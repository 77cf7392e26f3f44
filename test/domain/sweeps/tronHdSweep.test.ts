import { describe, expect, it } from 'vitest';
import { tronHdSweepTopUp } from '../../../domain/sweeps/tronHdSweep';

describe('the top-up of a Tron HD deposit address', () => {
  it('is the fee limit less what the address holds', () => {
    expect(tronHdSweepTopUp(30_000_000n, 0n)).toBe(30_000_000n);
    expect(tronHdSweepTopUp(30_000_000n, 1_000_000n)).toBe(29_000_000n);
  });

  it('is nothing when the address holds the fee limit or more', () => {
    expect(tronHdSweepTopUp(30_000_000n, 30_000_000n)).toBe(0n);
    expect(tronHdSweepTopUp(30_000_000n, 10n ** 12n)).toBe(0n);
  });

  it('refuses a fee limit of nothing and a negative balance', () => {
    expect(() => tronHdSweepTopUp(0n, 0n)).toThrow(RangeError);
    expect(() => tronHdSweepTopUp(1n, -1n)).toThrow(RangeError);
  });
});
