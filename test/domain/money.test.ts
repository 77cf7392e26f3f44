import { describe, expect, it } from 'vitest';
import { centsToUsd, hasAtMostDecimals, usdToCents } from '../../domain/money';

describe('USD amounts', () => {
  it.each([
    [0.29, 29n],
    [1.1, 110n],
    [19.99, 1999n],
    [1000000.01, 100000001n],
    [99999999.99, 9999999999n],
    [5, 500n],
  ])('%d USD is %d cents and back, exactly', (usd, cents) => {
    expect(usdToCents(usd)).toBe(cents);
    expect(centsToUsd(cents)).toBe(usd);
  });

  it.each([
    [10.005, 2, false],
    [1e-7, 6, false],
    [1e-7, 7, true],
    [1.5e-5, 6, true],
    [1e21, 2, true],
    [Number.NaN, 2, false],
    [Number.POSITIVE_INFINITY, 2, false],
  ])('hasAtMostDecimals(%d, %d) is %s', (value, places, expected) => {
    expect(hasAtMostDecimals(value, places)).toBe(expected);
  });

  it('refuses to round a third decimal away', () => {
    expect(() => usdToCents(0.125)).toThrow(RangeError);
  });
});
