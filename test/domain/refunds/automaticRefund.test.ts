// Why the service owes a deposit back, in depositMismatch's order, and what it is worth in USD micro-units.
import { describe, expect, it } from 'vitest';
import {
  refundExpiresAt,
  refundUsdMicros,
  SMALLEST_REFUNDABLE_DEPOSITS,
  unmatchedDepositSource,
} from '../../../domain/refunds/automaticRefund';

const usdcBase = { chain: 'base', token: 'USDC' } as const;

describe('unmatchedDepositSource', () => {
  it('calls a deposit after the session closed late, whatever it is', () => {
    expect(unmatchedDepositSource({ chain: 'tron', token: 'USDT' }, { closed: true, payment: usdcBase })).toBe('late_deposit');
  });

  it('tells another chain from another token, and one before any method was chosen another token', () => {
    expect(unmatchedDepositSource({ chain: 'polygon', token: 'USDC' }, { closed: false, payment: usdcBase })).toBe('wrong_chain');
    expect(unmatchedDepositSource({ chain: 'base', token: 'USDT' }, { closed: false, payment: usdcBase })).toBe('wrong_token');
    expect(unmatchedDepositSource(usdcBase, { closed: false, payment: null })).toBe('wrong_token');
  });

  it('calls a deposit in the chosen pair to an open session dust, the only reason left to keep it', () => {
    expect(unmatchedDepositSource(usdcBase, { closed: false, payment: usdcBase })).toBe('dust');
  });
});

describe('refundUsdMicros', () => {
  it('takes six-decimal tokens as they are and drops what 18-decimal bsc has below a micro-unit', () => {
    expect(refundUsdMicros(1_234_567n, 'USDC', 'base')).toBe(1_234_567n);
    expect(refundUsdMicros(1_234_567_999_999_999_999n, 'USDT', 'bsc')).toBe(1_234_567n);
    expect(refundUsdMicros(999_999_999_999n, 'USDT', 'bsc')).toBe(0n);
  });
});

describe('SMALLEST_REFUNDABLE_DEPOSITS', () => {
  it('is, for every token and chain, the smallest amount worth a micro-dollar', () => {
    expect(SMALLEST_REFUNDABLE_DEPOSITS).toHaveLength(16);
    for (const { chain, token, baseUnits } of SMALLEST_REFUNDABLE_DEPOSITS) {
      expect(refundUsdMicros(baseUnits, token, chain)).toBe(1n);
      expect(refundUsdMicros(baseUnits - 1n, token, chain)).toBe(0n);
    }
    expect(SMALLEST_REFUNDABLE_DEPOSITS).toContainEqual({ chain: 'bsc', token: 'USDT', baseUnits: 1_000_000_000_000n });
    expect(SMALLEST_REFUNDABLE_DEPOSITS).toContainEqual({ chain: 'tron', token: 'USDT', baseUnits: 1n });
  });
});

describe('refundExpiresAt', () => {
  it('closes the claim window the given number of days later', () => {
    expect(refundExpiresAt(new Date('2026-11-01T00:00:00Z'), 30).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});
