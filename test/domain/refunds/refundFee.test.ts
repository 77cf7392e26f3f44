import { describe, expect, it } from 'vitest';
import { refundCharge, refundFeeMicros } from '../../../domain/refunds/refundFee';

describe('refundFeeMicros', () => {
  it('reads USD to the micro-dollar exactly', () => {
    expect(refundFeeMicros('0.01')).toBe(10_000n);
    expect(refundFeeMicros('0')).toBe(0n);
    expect(refundFeeMicros(' 1.000001 ')).toBe(1_000_001n);
    expect(refundFeeMicros('100')).toBe(100_000_000n);
  });

  it('refuses what is not USD with at most six decimals, or above the most a fee may be', () => {
    for (const bad of ['', '-0.01', '0.0000001', '1e-2', '.5', '100.000001', 'abc']) expect(() => refundFeeMicros(bad)).toThrow(RangeError);
  });
});

describe('refundCharge', () => {
  it('deducted: the customer is paid the amount less the fee, the merchant owes nothing', () => {
    expect(refundCharge(5_000_000n, 'deducted', 10_000n)).toEqual({ kind: 'charged', paid: 4_990_000n, fee: 10_000n, merchantFee: 0n });
  });

  it('deducted: a refund not larger than the fee is refused', () => {
    expect(refundCharge(10_000n, 'deducted', 10_000n)).toMatchObject({ kind: 'refused', reason: expect.stringContaining('not larger') });
    expect(refundCharge(10_001n, 'deducted', 10_000n)).toMatchObject({ kind: 'charged', paid: 1n });
  });

  it('merchant: the customer gets it all and the merchant owes the fee', () => {
    expect(refundCharge(10_000n, 'merchant', 10_000n)).toEqual({ kind: 'charged', paid: 10_000n, fee: 10_000n, merchantFee: 10_000n });
  });

  it('refuses a refund of nothing', () => {
    expect(refundCharge(0n, 'merchant', 0n)).toMatchObject({ kind: 'refused' });
  });
});
