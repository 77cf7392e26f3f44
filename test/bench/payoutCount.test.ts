// BENCH_PAYOUTS is read once before `npm run bench` starts anything: 20 payouts unless set, and a value that is
// not a whole number of payouts stops the bench with the variable named.
import { describe, expect, it } from 'vitest';
import { payoutCount } from '../../bench/payoutLatency';

describe('BENCH_PAYOUTS', () => {
  it('times 20 payouts unless set, and as many as it says otherwise', () => {
    expect(payoutCount({})).toBe(20);
    expect(payoutCount({ BENCH_PAYOUTS: '' })).toBe(20);
    expect(payoutCount({ BENCH_PAYOUTS: ' 50 ' })).toBe(50);
  });

  it.each(['0', '-3', '2.5', 'twenty', '020', '10000'])('refuses %s', (value) => {
    expect(() => payoutCount({ BENCH_PAYOUTS: value })).toThrow(`BENCH_PAYOUTS must be a whole number from 1 to 9999, got "${value}"`);
  });
});
