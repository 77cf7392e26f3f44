// Who owns each unit of a session's payment: the merchant its price at the quoted rate, the customer the rest.
import { describe, expect, it } from 'vitest';
import { baseUnitsForUsd, parseRate, toSixDecimalString } from '../../../domain/money/pricing';
import type { LedgerState } from '../../../domain/session/sessionState';
import { creditedExcess, refundsDue } from '../../../domain/session/sessionLedger';
import { cryptoPartOwed, depositShares, merchantOwed, usdValue, type QuotedPrice } from '../../../domain/settlement/unitOwnership';
import type { Chain, TokenSymbol } from '../../../domain/chains/chains';

/** A session of `cents` paid in `token` on `chain` at `rate`: what select-payment asks for, and what arrived. */
function session(cents: bigint, rate: string, received: bigint, opts: { chain?: Chain; token?: TokenSymbol; decimals?: number } = {}) {
  const decimals = opts.decimals ?? 6;
  const expected = baseUnitsForUsd(cents, decimals, parseRate(rate));
  const ledger: LedgerState = {
    selection: {
      payment_id: 'pay_x',
      quote_id: 'qt_x',
      token: opts.token ?? 'USDT',
      chain: opts.chain ?? 'bsc',
      deposit_address: '0xabc',
      token_address: '0xdef',
      amount: toSixDecimalString(expected, decimals),
      amount_base_units: expected.toString(),
      decimals,
      payment_uri: 'ethereum:x',
      confirmations_required: 15,
      expires_at: '2026-01-01T00:00:00.000Z',
    },
    deposits: [],
    receivedBaseUnits: received.toString(),
    bankReceipts: [],
    bankReceivedCents: '0',
  };
  return { ledger, expected, price: { amountUsdCents: cents, expectedBaseUnits: expected, decimals } satisfies QuotedPrice };
}

describe('merchantOwed', () => {
  it('pays a $100 order in USDT at 0.95 as 100 USDC, not the 105.26 USDT received', () => {
    const { ledger, expected } = session(10_000n, '0.95', 0n, { chain: 'tron', decimals: 6 });
    expect(expected).toBe(105_263_158n);
    ledger.receivedBaseUnits = expected.toString();
    expect(merchantOwed(ledger, 10_000n)).toBe(100_000_000n);
    expect(creditedExcess(ledger)).toBe(0n);
  });

  it('values an 18-decimal deposit at the quoted rate', () => {
    const { ledger, expected } = session(10_000n, '0.95', 0n, { chain: 'bsc', decimals: 18 });
    ledger.receivedBaseUnits = expected.toString();
    expect(merchantOwed(ledger, 10_000n)).toBe(100_000_000n);
  });

  it('owes the merchant the session amount of an overpayment beyond tolerance, the customer the excess', () => {
    const { ledger } = session(10_000n, '1', 150_000_000n, { chain: 'base', token: 'USDC' });
    expect(merchantOwed(ledger, 10_000n)).toBe(100_000_000n);
    expect(creditedExcess(ledger)).toBe(50_000_000n);
    expect(refundsDue(ledger)).toEqual([{ kind: 'excess', chain: 'base', token: 'USDC', amountBaseUnits: '50000000' }]);
  });

  it('owes the customer the excess of an overpayment within tolerance too: the tolerance decides the status only', () => {
    const { ledger } = session(10_000n, '1', 100_300_000n, { chain: 'base', token: 'USDC' });
    expect(merchantOwed(ledger, 10_000n)).toBe(100_000_000n);
    expect(creditedExcess(ledger)).toBe(300_000n);
  });

  it('owes the merchant what arrived of an underpaid session, at the quoted rate', () => {
    const half = session(10_000n, '0.95', 52_631_579n, { chain: 'tron' });
    expect(merchantOwed(half.ledger, 10_000n)).toBe(50_000_000n);
    // A unit less than half is worth less than half the price, rounded down to the micro-unit.
    const { ledger } = session(10_000n, '0.95', 52_631_578n, { chain: 'tron' });
    expect(merchantOwed(ledger, 10_000n)).toBe(49_999_999n);
    expect(creditedExcess(ledger)).toBe(0n);
  });

  it('counts credited bank transfers at their cents, within the session amount', () => {
    const { ledger } = session(10_000n, '1', 30_000_000n, { chain: 'base', token: 'USDC' });
    ledger.bankReceivedCents = '9000';
    expect(merchantOwed(ledger, 10_000n)).toBe(100_000_000n);
    const bankOnly: LedgerState = { deposits: [], receivedBaseUnits: '0', bankReceipts: [], bankReceivedCents: '4000' };
    expect(merchantOwed(bankOnly, 10_000n)).toBe(40_000_000n);
  });
});

describe('usdValue', () => {
  it('rounds down, so a payout never exceeds what the units are worth', () => {
    const price: QuotedPrice = { amountUsdCents: 100n, expectedBaseUnits: 3_000_000n, decimals: 6 };
    expect(usdValue(1_000_000n, price)).toBe(333_333n);
  });
});

describe('depositShares', () => {
  it('splits deposits at the amount asked for: the rest, and every later deposit, is refund due', () => {
    const { price } = session(10_000n, '1', 0n, { chain: 'base', token: 'USDC' });
    expect(depositShares([60_000_000n, 60_000_000n, 5_000_000n], price)).toEqual([
      { merchantBaseUnits: 60_000_000n, refundDueBaseUnits: 0n, payableUsdc: 60_000_000n },
      { merchantBaseUnits: 40_000_000n, refundDueBaseUnits: 20_000_000n, payableUsdc: 40_000_000n },
      { merchantBaseUnits: 0n, refundDueBaseUnits: 5_000_000n, payableUsdc: 0n },
    ]);
  });

  it('makes the payables add up to merchantOwed at a rate other than 1 and 18 decimals', () => {
    const { ledger, price, expected } = session(10_000n, '0.95', 0n, { chain: 'bsc', decimals: 18 });
    const amounts = [expected / 3n + 7n, expected / 3n, expected / 3n + 10n ** 15n];
    ledger.receivedBaseUnits = amounts.reduce((a, b) => a + b, 0n).toString();
    const shares = depositShares(amounts, price);
    expect(shares.reduce((sum, s) => sum + s.payableUsdc, 0n)).toBe(merchantOwed(ledger, 10_000n));
    expect(shares.reduce((sum, s) => sum + s.merchantBaseUnits, 0n)).toBe(expected);
    expect(shares.reduce((sum, s) => sum + s.refundDueBaseUnits, 0n)).toBe(creditedExcess(ledger));
    for (const [i, s] of shares.entries()) expect(s.merchantBaseUnits + s.refundDueBaseUnits).toBe(amounts[i]);
  });

  it('leaves the crypto deposits only the price the bank transfers did not pay, at 0.95 and 18 decimals', () => {
    const { ledger, price, expected } = session(10_000n, '0.95', 0n, { chain: 'bsc', decimals: 18 });
    ledger.bankReceivedCents = '7000';
    const amounts = [expected / 2n, expected / 2n];
    ledger.receivedBaseUnits = (expected / 2n + expected / 2n).toString();
    const shares = depositShares(amounts, { ...price, bankCents: 7_000n });
    expect(cryptoPartOwed(ledger, 10_000n)).toBe(30_000_000n);
    expect(shares.reduce((sum, s) => sum + s.payableUsdc, 0n)).toBe(30_000_000n);
    // What pays $30 is owed to the merchant; the rest of the crypto deposits is the customer's.
    const merchantUnits = shares.reduce((sum, s) => sum + s.merchantBaseUnits, 0n);
    expect(usdValue(merchantUnits, price)).toBeGreaterThanOrEqual(30_000_000n);
    expect(usdValue(merchantUnits - 10n ** 12n, price)).toBeLessThan(30_000_000n);
    for (const [i, s] of shares.entries()) expect(s.merchantBaseUnits + s.refundDueBaseUnits).toBe(amounts[i]);
  });

  it('leaves nothing for the crypto deposits when bank transfers paid the whole price', () => {
    const { ledger, price, expected } = session(10_000n, '1', expected100(), {});
    ledger.bankReceivedCents = '10000';
    expect(cryptoPartOwed(ledger, 10_000n)).toBe(0n);
    expect(depositShares([expected], { ...price, bankCents: 10_000n })).toEqual([
      { merchantBaseUnits: 0n, refundDueBaseUnits: expected, payableUsdc: 0n },
    ]);
  });
});

const expected100 = () => baseUnitsForUsd(10_000n, 6, parseRate('1'));
