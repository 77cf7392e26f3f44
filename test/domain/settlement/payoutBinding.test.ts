// The signer pays a payout only to the payment's own merchant, in its mode, by the treasury route, for exactly what the
// credited deposits owe at the quoted price, and signs it only to the wallet that merchant has when it signs.
import { describe, expect, it } from 'vitest';
import {
  judgePayoutAmount,
  judgePayoutBinding,
  judgePayoutWallet,
  payoutOwed,
  type PaymentRecord,
} from '../../../domain/settlement/payoutBinding';
import { cryptoPartOwed } from '../../../domain/settlement/unitOwnership';
import type { LedgerState } from '../../../domain/session/sessionState';

const request = { paymentId: 'pay_1', merchantId: 'mer_a', mode: 'test' as const };
const payment: PaymentRecord = {
  paymentId: 'pay_1',
  merchantId: 'mer_a',
  mode: 'test',
  status: 'confirming',
  route: 'treasury',
  settlement: { provider: 'solana-treasury', status: 'pending' },
};

describe('judgePayoutBinding', () => {
  it('binds a request naming the payment’s merchant and mode, on the treasury route with its settlement begun', () => {
    for (const status of ['awaiting_payment', 'confirming', 'underpaid', 'completed', 'overpaid', 'failed'] as const)
      expect(judgePayoutBinding(request, { ...payment, status })).toEqual({ kind: 'bound' });
  });

  it('refuses another merchant, another mode, an unpaid session, another route or settlement', () => {
    const refused = (record: Partial<PaymentRecord>, reason: RegExp) =>
      expect(judgePayoutBinding(request, { ...payment, ...record })).toEqual({ kind: 'refused', reason: expect.stringMatching(reason) });
    refused({ merchantId: 'mer_b' }, /^payment pay_1 belongs to merchant mer_b, not to mer_a, .*; not paid$/);
    refused({ mode: 'live' }, /is a live payment, not test/);
    for (const status of ['pending', 'expired', 'cancelled'] as const) refused({ status }, new RegExp(`has a ${status} session`));
    refused({ route: 'simulated' }, /route simulated/);
    refused({ route: 'unavailable' }, /route unavailable/);
    refused({ settlement: { provider: 'simulated', status: 'pending' } }, /settlements row: simulated/);
    const { settlement: _, ...unbegun } = payment;
    expect(judgePayoutBinding(request, unbegun)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/settlements row: none/) });
    refused({ settlement: { provider: 'solana-treasury', status: 'settled' } }, /already settled/);
  });

  it('at signing asks the merchant, mode and route again, not the status or settlement row a new generation has moved past', () => {
    const { settlement: _, ...unbegun } = payment;
    expect(judgePayoutBinding(request, { ...unbegun, status: 'failed' }, 'signing')).toEqual({ kind: 'bound' });
    expect(judgePayoutBinding(request, { ...payment, merchantId: 'mer_b' }, 'signing').kind).toBe('refused');
    expect(judgePayoutBinding(request, { ...payment, route: 'unavailable' }, 'signing').kind).toBe('refused');
  });
});

describe('payoutOwed', () => {
  const price = { amountUsdCents: 10_000n, expectedBaseUnits: 100_000_000n, decimals: 6 };
  const ledger = (received: bigint, bankCents = 0n): LedgerState =>
    ({
      selection: { amount_base_units: '100000000', decimals: 6 },
      receivedBaseUnits: received.toString(),
      bankReceivedCents: bankCents.toString(),
    }) as unknown as LedgerState;

  it('is what the settlement workflow asks for: underpaid, exact, overpaid, and with bank transfers', () => {
    const cases: Array<[bigint[], bigint]> = [
      [[40_000_000n], 0n],
      [[60_000_000n, 40_000_000n], 0n],
      [[60_000_000n, 60_000_000n, 5_000_000n], 0n],
      [[30_000_000n, 50_000_000n], 7_000n],
      [[100_000_000n], 10_000n],
    ];
    for (const [amounts, bankCents] of cases) {
      const received = amounts.reduce((a, b) => a + b, 0n);
      expect(payoutOwed(amounts, { ...price, bankCents })).toBe(cryptoPartOwed(ledger(received, bankCents), price.amountUsdCents));
    }
    expect(payoutOwed([60_000_000n, 60_000_000n], price)).toBe(100_000_000n);
    expect(payoutOwed([], price)).toBe(0n);
  });

  it('is the deposits’ value at the quoted rate, an 18-decimal token at 0.95 too', () => {
    expect(
      payoutOwed([7_368_421_052_631_578_948n], { amountUsdCents: 700n, expectedBaseUnits: 7_368_421_052_631_578_948n, decimals: 18 }),
    ).toBe(7_000_000n);
  });
});

describe('judgePayoutAmount', () => {
  it('accepts exactly what is owed, and refuses more or less', () => {
    expect(judgePayoutAmount('pay_1', 5n, 5n)).toEqual({ kind: 'bound' });
    expect(judgePayoutAmount('pay_1', 6n, 5n)).toEqual({
      kind: 'refused',
      reason: "payment pay_1: the indexer's credited deposits owe 5 USDC base units at the quoted price, the payout asks for 6; not paid",
    });
    expect(judgePayoutAmount('pay_1', 4n, 5n).kind).toBe('refused');
  });
});

describe('judgePayoutWallet', () => {
  const payout = { paymentId: 'pay_1', merchantId: 'mer_a', merchantWallet: 'Wallet1' };
  it('signs to the settlement wallet the payment’s merchant has now', () => {
    expect(judgePayoutWallet(payout, { merchantId: 'mer_a', settlementWallet: 'Wallet1' })).toEqual({ kind: 'bound' });
  });

  it('refuses a row naming another merchant, another wallet, or a merchant without one', () => {
    expect(judgePayoutWallet(payout, { merchantId: 'mer_b', settlementWallet: 'Wallet1' })).toEqual({
      kind: 'refused',
      reason: 'payout of pay_1 names merchant mer_a, but its payment belongs to mer_b; not signed',
    });
    expect(judgePayoutWallet(payout, { merchantId: 'mer_a', settlementWallet: 'Wallet2' })).toEqual({
      kind: 'refused',
      reason: "payout of pay_1 pays wallet Wallet1, but merchant mer_a's settlement wallet is Wallet2; not signed",
    });
    expect(judgePayoutWallet(payout, { merchantId: 'mer_a', settlementWallet: null }).kind).toBe('refused');
  });
});
