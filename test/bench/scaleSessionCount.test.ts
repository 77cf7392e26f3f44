// BENCH_SCALE_SESSIONS is read once before `npm run bench` starts anything: 10,000 open sessions unless set, and a
// value that is not a whole number of at least 100 stops the bench with the variable named.
import { describe, expect, it } from 'vitest';
import { scaleSessionCount } from '../../bench/scaleSessions';

describe('BENCH_SCALE_SESSIONS', () => {
  it('opens 10,000 sessions unless set, and as many as it says otherwise', () => {
    expect(scaleSessionCount({})).toBe(10_000);
    expect(scaleSessionCount({ BENCH_SCALE_SESSIONS: '' })).toBe(10_000);
    expect(scaleSessionCount({ BENCH_SCALE_SESSIONS: ' 1000 ' })).toBe(1000);
    expect(scaleSessionCount({ BENCH_SCALE_SESSIONS: '100' })).toBe(100);
  });

  it.each(['99', '0', '-300', '2500.5', 'many', '01000', '1000000'])('refuses %s', (value) => {
    expect(() => scaleSessionCount({ BENCH_SCALE_SESSIONS: value })).toThrow(
      `BENCH_SCALE_SESSIONS must be a whole number from 100 to 999999, got "${value}"`,
    );
  });
});
