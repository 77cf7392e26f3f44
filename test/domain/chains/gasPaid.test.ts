import { describe, expect, it } from 'vitest';
import { gasPaidWei } from '../../../domain/chains/gasPaid';

describe('gasPaidWei', () => {
  it('is gasUsed × effectiveGasPrice on a chain without an L1 data fee', () => {
    expect(gasPaidWei({ gasUsed: 21_000n, effectiveGasPrice: 3n })).toBe(63_000n);
    expect(gasPaidWei({ gasUsed: 21_000n, effectiveGasPrice: 3n, l1Fee: null })).toBe(63_000n);
  });

  it("adds an OP-stack receipt's L1 data fee, as viem's OP formatter or the node's hex gives it", () => {
    expect(gasPaidWei({ gasUsed: 21_000n, effectiveGasPrice: 3n, l1Fee: 1_000n })).toBe(64_000n);
    expect(gasPaidWei({ gasUsed: 21_000n, effectiveGasPrice: 3n, l1Fee: '0x3e8' })).toBe(64_000n);
  });

  it('refuses an l1Fee that is not a quantity rather than post a guess', () => {
    expect(() => gasPaidWei({ gasUsed: 1n, effectiveGasPrice: 1n, l1Fee: 'lots' })).toThrow(RangeError);
  });
});
