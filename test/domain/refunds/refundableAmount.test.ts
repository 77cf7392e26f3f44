import { describe, expect, it } from 'vitest';
import {
  decideRefundAmount,
  formatUsdMicros,
  refundableAmount,
  usdMicrosOf,
  type RefundableFacts,
} from '../../../domain/refunds/refundableAmount';

const facts = (overrides: Partial<RefundableFacts> = {}): RefundableFacts => ({
  sessionStatus: 'completed',
  creditedDeposits: [{ amountBaseUnits: 42_500_000n, decimals: 6 }],
  simulatedReceipt: undefined,
  refunds: [],
  ...overrides,
});

describe('usdMicrosOf', () => {
  it('takes one token unit for one dollar at six decimals', () => {
    expect(usdMicrosOf({ amountBaseUnits: 1_234_567n, decimals: 6 })).toBe(1_234_567n);
  });

  it("rounds bsc's 18 decimals down to the micro-unit", () => {
    expect(usdMicrosOf({ amountBaseUnits: 1_999_999_999_999_999_999n, decimals: 18 })).toBe(1_999_999n);
  });
});

describe('refundableAmount', () => {
  it.each(['completed', 'overpaid', 'underpaid'] as const)('refunds what a %s session was paid', (sessionStatus) => {
    expect(refundableAmount(facts({ sessionStatus }))).toEqual({ ok: true, paidUsdMicros: 42_500_000n, refundableUsdMicros: 42_500_000n });
  });

  it.each(['pending', 'awaiting_payment', 'confirming', 'expired', 'failed', 'cancelled'] as const)(
    'refuses a %s session',
    (sessionStatus) => {
      expect(refundableAmount(facts({ sessionStatus }))).toEqual({ ok: false, message: expect.stringContaining(`is ${sessionStatus}`) });
    },
  );

  it('sums every credited deposit, each at its own decimals', () => {
    const creditedDeposits = [
      { amountBaseUnits: 10_000_000n, decimals: 6 },
      { amountBaseUnits: 5_000_000_000_000_000_000n, decimals: 18 },
    ];
    expect(refundableAmount(facts({ creditedDeposits }))).toMatchObject({ refundableUsdMicros: 15_000_000n });
  });

  it('takes off the refunds that still hold money, and not those that ended without moving any', () => {
    const refunds = [
      { source: 'merchant', status: 'pending_claim', amountUsdMicros: 10_000_000n },
      { source: 'merchant', status: 'completed', amountUsdMicros: 2_000_000n },
      { source: 'overpayment', status: 'claimed', amountUsdMicros: 500_000n },
      { source: 'merchant', status: 'failed', amountUsdMicros: 1_000_000n },
      { source: 'merchant', status: 'expired', amountUsdMicros: 1_000_000n },
      { source: 'merchant', status: 'cancelled', amountUsdMicros: 1_000_000n },
    ] as const;
    expect(refundableAmount(facts({ refunds }))).toMatchObject({ refundableUsdMicros: 30_000_000n });
  });

  it("leaves refunds of deposits the session never credited out of the merchant's amount", () => {
    const refunds = (['late_deposit', 'wrong_token', 'wrong_chain', 'dust'] as const).map((source) => ({
      source,
      status: 'pending_claim' as const,
      amountUsdMicros: 1_000_000n,
    }));
    expect(refundableAmount(facts({ refunds }))).toMatchObject({ refundableUsdMicros: 42_500_000n });
  });

  it('never answers less than nothing', () => {
    const refunds = [{ source: 'merchant', status: 'completed', amountUsdMicros: 50_000_000n }] as const;
    expect(refundableAmount(facts({ refunds }))).toMatchObject({ refundableUsdMicros: 0n });
  });

  it("counts a simulated session's made-up receipt when it credited no deposit", () => {
    const simulated = facts({ creditedDeposits: [], simulatedReceipt: { amountBaseUnits: 21_250_000n, decimals: 6 } });
    expect(refundableAmount(simulated)).toMatchObject({ paidUsdMicros: 21_250_000n });
  });

  it('has nothing to refund on a paid session without deposits or a simulated receipt (a bank transfer went to the merchant)', () => {
    expect(refundableAmount(facts({ creditedDeposits: [] }))).toMatchObject({ ok: true, refundableUsdMicros: 0n });
  });
});

describe('decideRefundAmount', () => {
  it('refunds everything left when no amount is given', () => {
    expect(decideRefundAmount(12_345_678n, undefined)).toEqual({ ok: true, amountUsdMicros: 12_345_678n });
  });

  it('refunds a part, and the whole of what is left', () => {
    expect(decideRefundAmount(12_345_678n, 10_000_000n)).toEqual({ ok: true, amountUsdMicros: 10_000_000n });
    expect(decideRefundAmount(12_345_678n, 12_345_678n)).toEqual({ ok: true, amountUsdMicros: 12_345_678n });
  });

  it('refuses more than is left, saying how much is', () => {
    expect(decideRefundAmount(12_345_678n, 12_350_000n)).toEqual({
      ok: false,
      message: 'amount_usd 12.35 is more than the 12.345678 still refundable on this session',
    });
  });

  it('refuses when nothing is left, whatever the amount', () => {
    expect(decideRefundAmount(0n, undefined)).toMatchObject({ ok: false, message: 'Nothing is left to refund on this session' });
    expect(decideRefundAmount(0n, 1n)).toMatchObject({ ok: false });
  });
});

describe('formatUsdMicros', () => {
  it.each([
    [0n, '0'],
    [5_000_000n, '5'],
    [5_100_000n, '5.10'],
    [5_010_000n, '5.01'],
    [5_000_001n, '5.000001'],
  ])('%s → %s', (micros, text) => {
    expect(formatUsdMicros(micros)).toBe(text);
  });
});
