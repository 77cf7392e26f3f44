// The fee of a payout: basis points of the gross rounded down, plus fixed cents, never above the gross.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FEE_BPS, NO_FEE, payoutFee } from '../../../domain/settlement/merchantFee';

const amounts = fc.bigInt({ min: 1n, max: 10n ** 15n });
const fees = fc.record({ bps: fc.integer({ min: 0, max: MAX_FEE_BPS }), fixedCents: fc.bigInt({ min: 0n, max: 10n ** 9n }) });

describe('merchant fee', () => {
  it('is nothing when both parts are 0', () => {
    expect(payoutFee(10_000_000n, NO_FEE)).toBe(0n);
    fc.assert(fc.property(amounts, (amount) => payoutFee(amount, NO_FEE) === 0n));
  });

  it('takes basis points of the gross rounded down, plus 10,000 base units per cent', () => {
    expect(payoutFee(10_000_000n, { bps: 150, fixedCents: 0n })).toBe(150_000n);
    expect(payoutFee(10_000_000n, { bps: 0, fixedCents: 30n })).toBe(300_000n);
    expect(payoutFee(10_000_000n, { bps: 290, fixedCents: 30n })).toBe(590_000n);
    // 1.5 % of 33 units is 0.495 of a unit: the merchant keeps the fraction.
    expect(payoutFee(33n, { bps: 150, fixedCents: 0n })).toBe(0n);
    expect(payoutFee(199n, { bps: 100, fixedCents: 0n })).toBe(1n);
  });

  it('never takes more than the payout', () => {
    expect(payoutFee(5_000n, { bps: 0, fixedCents: 1n })).toBe(5_000n);
    expect(payoutFee(7n, { bps: MAX_FEE_BPS, fixedCents: 0n })).toBe(7n);
    fc.assert(
      fc.property(amounts, fees, (amount, fee) => {
        const charged = payoutFee(amount, fee);
        return charged >= 0n && charged <= amount;
      }),
    );
  });

  it('grows with the gross and with each part of the fee', () => {
    fc.assert(
      fc.property(amounts, amounts, fees, (a, b, fee) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        return payoutFee(small, fee) <= payoutFee(large, fee);
      }),
    );
    fc.assert(
      fc.property(amounts, fees, fc.integer({ min: 0, max: MAX_FEE_BPS }), (amount, fee, bps) => {
        const more = { bps: Math.max(fee.bps, bps), fixedCents: fee.fixedCents + 1n };
        return payoutFee(amount, fee) <= payoutFee(amount, more);
      }),
    );
  });

  it('is exactly the sum of its parts below the cap', () => {
    fc.assert(
      fc.property(amounts, fees, (amount, fee) => {
        const sum = (amount * BigInt(fee.bps)) / 10_000n + fee.fixedCents * 10_000n;
        return sum > amount || payoutFee(amount, fee) === sum;
      }),
    );
  });

  it('refuses a fee outside its range rather than guess', () => {
    expect(() => payoutFee(0n, NO_FEE)).toThrow(RangeError);
    expect(() => payoutFee(1n, { bps: MAX_FEE_BPS + 1, fixedCents: 0n })).toThrow(RangeError);
    expect(() => payoutFee(1n, { bps: 1.5, fixedCents: 0n })).toThrow(RangeError);
    expect(() => payoutFee(1n, { bps: 0, fixedCents: -1n })).toThrow(RangeError);
  });
});
