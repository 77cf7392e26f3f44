import { describe, expect, it } from 'vitest';
import { centsToUsd, hasAtMostDecimals, parseUsdCents, usdToCents } from '../../../domain/money/money';

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

describe('parseUsdCents', () => {
  it.each([
    ['0.1', 10n],
    ['0.29', 29n],
    ['19.99', 1999n],
    ['5', 500n],
    ['0', 0n],
    ['007.50', 750n],
    ['99999999.99', 9999999999n],
    // Far past 2^53 cents: exact, because no JS number is ever involved.
    ['123456789012345678901234567890.12', 12345678901234567890123456789012n],
  ])('%s → %d cents', (text, cents) => {
    expect(parseUsdCents(text)).toBe(cents);
  });

  it.each(['1e3', '  5', '5 ', '5.', '.5', '5.001', '-1', '+1', '0x10', '1,000.00', '5.5.5', '', 'NaN', 'Infinity', '٥'])(
    'refuses %j, naming it',
    (text) => {
      expect(() => parseUsdCents(text)).toThrow(
        new RangeError(`"${text}" is not a USD amount: write digits with at most 2 decimals, such as 25.50`),
      );
    },
  );
});
