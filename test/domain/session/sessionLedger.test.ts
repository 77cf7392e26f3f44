// The session ledger alone: every money decision of a session, without Temporal or Postgres.
import { describe, expect, it } from 'vitest';
import type { Chain, TokenSymbol } from '../../../domain/chains/chains';
import type { ConfirmedDeposit, DepositObservation } from '../../../domain/session/deposit';
import type { PaymentInstructions } from '../../../domain/wire/payment';
import { baseUnitsForUsd, parseRate, toSixDecimalString } from '../../../domain/money/pricing';
import {
  amountDue,
  amountVerdict,
  confirmDeposit,
  countConfirmations,
  creditedTotal,
  creditKeptDeposit,
  decideStatus,
  emptyLedger,
  hasCreditableDeposit,
  hasPaymentUnderWay,
  MAX_REFUND_DEPOSITS_IN_STATE,
  observeDeposit,
  receiveBankTransfer,
  refundsDue,
  reorgDeposit,
  settlementParts,
  simulateReceipt,
  type LedgerTerms,
  type LedgerWindow,
} from '../../../domain/session/sessionLedger';
import type { LedgerState } from '../../../domain/session/sessionState';
import { cryptoPartOwed } from '../../../domain/settlement/unitOwnership';

const terms = (cents: bigint, bank = true): LedgerTerms => ({
  amountUsdCents: cents,
  tolerance: { bps: 50, minCents: 1n },
  bankAccepted: bank,
  minimumDepositMicro: 10_000n,
});
/** Deposit handling depends on the terms only through the minimum deposit (one cent here). */
const observe = (ledger: LedgerState, deposit: DepositObservation, window: LedgerWindow) =>
  observeDeposit(ledger, deposit, window, terms(0n));
const confirm = (ledger: LedgerState, deposit: ConfirmedDeposit, window: LedgerWindow) =>
  confirmDeposit(ledger, deposit, window, terms(0n));
const open: LedgerWindow = { closed: false, status: 'awaiting_payment' };
const closedAs = (status: LedgerWindow['status']): LedgerWindow => ({ closed: true, status });

function selection(amountBaseUnits: bigint, chain: Chain = 'base', token: TokenSymbol = 'USDC', decimals = 6): PaymentInstructions {
  return {
    payment_id: 'pay_x',
    quote_id: 'qt_x',
    token,
    chain,
    deposit_address: '0xabc',
    token_address: '0xdef',
    amount: toSixDecimalString(amountBaseUnits, decimals),
    amount_base_units: amountBaseUnits.toString(),
    decimals,
    payment_uri: 'ethereum:x',
    confirmations_required: 64,
    expires_at: '2026-01-01T00:00:00.000Z',
  };
}

let tx = 0;
function transfer(amount: bigint, overrides: Partial<DepositObservation> = {}): DepositObservation {
  tx += 1;
  return {
    chain: 'base',
    token: 'USDC',
    txHash: `0x${tx}`,
    logIndex: 0,
    amount: amount.toString(),
    toAddress: '0xabc',
    fromAddress: '0xpayer',
    blockNumber: '10',
    blockHash: `0xb${tx}`,
    ...overrides,
  };
}

function ledgerFor(expected: bigint, chain?: Chain, token?: TokenSymbol, decimals?: number): LedgerState {
  return { ...emptyLedger(), selection: selection(expected, chain, token, decimals) };
}

/** Detects and confirms a transfer, as the indexer's two signals would. */
function pay(ledger: LedgerState, deposit: DepositObservation, window = open) {
  observe(ledger, deposit, window);
  return confirm(ledger, { ...deposit, confirmations: 64 }, window);
}

describe('session ledger', () => {
  it('judges an exact payment completed, settles the amount received', () => {
    const ledger = ledgerFor(25_500_000n);
    expect(observe(ledger, transfer(25_500_000n), open).kind).toBe('tracked');
    expect(decideStatus(ledger, terms(2550n), false)).toEqual({ status: 'confirming', settle: false, close: false });
    expect(confirm(ledger, { ...ledger.deposits[0]!, confirmations: 64 }, open).kind).toBe('credited');
    expect(decideStatus(ledger, terms(2550n), false)).toEqual({ status: 'completed', settle: true, close: true });
    expect(settlementParts(ledger)).toEqual({ crypto: { chain: 'base', token: 'USDC', baseUnits: '25500000', decimals: 6 } });
    expect(cryptoPartOwed(ledger, 2550n)).toBe(25_500_000n);
    expect(amountDue(ledger, terms(2550n))).toBe(0n);
  });

  it('accepts within tolerance as exact and judges beyond it under or over', () => {
    const t = terms(10_000n); // 100 USD: 0.5 % = 0.50 USD
    const within = ledgerFor(100_000_000n);
    pay(within, transfer(99_500_000n));
    expect(amountVerdict(within, t)).toBe('exact');
    const over = ledgerFor(100_000_000n);
    pay(over, transfer(100_500_001n));
    expect(decideStatus(over, t, false)).toEqual({ status: 'overpaid', settle: true, close: true });
    const under = ledgerFor(100_000_000n);
    pay(under, transfer(99_499_999n));
    expect(decideStatus(under, t, false)).toEqual({ status: 'underpaid', settle: false, close: false });
  });

  it('adds a top-up to an underpaid payment until it completes', () => {
    const ledger = ledgerFor(100_000_000n);
    pay(ledger, transfer(60_000_000n));
    expect(decideStatus(ledger, terms(10_000n), false).status).toBe('underpaid');
    expect(amountDue(ledger, terms(10_000n))).toBe(40_000_000n);
    observe(ledger, transfer(40_000_000n), { closed: false, status: 'underpaid' });
    expect(decideStatus(ledger, terms(10_000n), false).status).toBe('confirming');
    confirm(ledger, { ...ledger.deposits[1]!, confirmations: 64 }, { closed: false, status: 'confirming' });
    expect(ledger.receivedBaseUnits).toBe('100000000');
    expect(decideStatus(ledger, terms(10_000n), false)).toEqual({ status: 'completed', settle: true, close: true });
  });

  it('expires with nothing received, and settles an underpaid amount at expiry, closing underpaid', () => {
    const unpaid = ledgerFor(5_000_000n);
    expect(decideStatus(unpaid, terms(500n), true)).toEqual({ status: 'expired', settle: false, close: true });
    const under = ledgerFor(5_000_000n);
    pay(under, transfer(1_000_000n));
    expect(decideStatus(under, terms(500n), true)).toEqual({ status: 'underpaid', settle: true, close: true });
  });

  it('refunds instead of settling an amount still underpaid at expiry when the merchant chose refund', () => {
    const refunding: LedgerTerms = { ...terms(500n), underpaidExpiry: 'refund' };
    const under = ledgerFor(5_000_000n);
    pay(under, transfer(1_000_000n));
    expect(decideStatus(under, refunding, false)).toEqual({ status: 'underpaid', settle: false, close: false });
    expect(decideStatus(under, refunding, true)).toEqual({ status: 'expired', settle: false, close: true, refund: true });
    expect(decideStatus(under, { ...refunding, underpaidExpiry: 'settle' }, true)).toEqual({
      status: 'underpaid',
      settle: true,
      close: true,
    });
    expect(decideStatus(ledgerFor(5_000_000n), refunding, true)).toEqual({ status: 'expired', settle: false, close: true });
    // Expired so, every credited deposit is owed back whole.
    const second = transfer(500_000n);
    pay(under, second);
    expect(refundsDue({ ...under, status: 'underpaid' })).toEqual([]);
    expect(refundsDue({ ...under, status: 'expired' }).map((r) => (r.kind === 'deposit' ? [r.txHash, r.amountBaseUnits] : r.kind))).toEqual(
      [
        [under.deposits[0]!.txHash, '1000000'],
        [second.txHash, '500000'],
      ],
    );
    const paid = ledgerFor(5_000_000n);
    pay(paid, transfer(5_000_000n));
    expect(decideStatus(paid, refunding, true)).toEqual({ status: 'completed', settle: true, close: true });
  });

  it('keeps a deposit seen before expiry confirming past it', () => {
    const ledger = ledgerFor(5_000_000n);
    observe(ledger, transfer(5_000_000n), open);
    expect(decideStatus(ledger, terms(500n), true).status).toBe('confirming');
  });

  it('counts bank receipts once per reference; different references add up; a bank-only partial stays underpaid at expiry and settles', () => {
    const ledger = emptyLedger();
    const t = terms(10_000n);
    const window: LedgerWindow = { closed: false, status: 'pending' };
    expect(receiveBankTransfer(ledger, { amountUsdCents: '4000', reference: 'CS-ABC', receivedBy: 'ops' }, window, t)).toEqual({
      kind: 'credited',
    });
    expect(receiveBankTransfer(ledger, { amountUsdCents: '4000', reference: 'cs-abc ', receivedBy: 'ops' }, window, t)).toEqual({
      kind: 'duplicate',
      sameAmount: true,
    });
    expect(receiveBankTransfer(ledger, { amountUsdCents: '9999', reference: 'CS-ABC', receivedBy: 'ops' }, window, t)).toEqual({
      kind: 'duplicate',
      sameAmount: false,
    });
    expect(ledger.bankReceivedCents).toBe('4000');
    expect(decideStatus(ledger, t, false)).toEqual({ status: 'underpaid', settle: false, close: false });
    expect(decideStatus(ledger, t, true)).toEqual({ status: 'underpaid', settle: true, close: true });
    // A bank-only session settles its bank part alone: no token, no chain, nothing for a treasury to pay.
    expect(settlementParts(ledger)).toEqual({ bank: { usdCents: 4000n, references: ['CS-ABC'] } });
    expect(cryptoPartOwed(ledger, 10_000n)).toBe(0n);
    // A credited bank transfer stops a cancel, not the choice of a crypto method for the rest.
    expect(hasPaymentUnderWay(ledger)).toBe(true);
    expect(hasCreditableDeposit(ledger)).toBe(false);
    receiveBankTransfer(ledger, { amountUsdCents: '6000', reference: 'CS-ABC-2', receivedBy: 'ops' }, window, t);
    expect(decideStatus(ledger, t, false)).toEqual({ status: 'completed', settle: true, close: true });
  });

  it('adds crypto and bank receipts into one credited total, and settles them as two parts', () => {
    const ledger = ledgerFor(100_000_000n);
    pay(ledger, transfer(30_000_000n));
    receiveBankTransfer(ledger, { amountUsdCents: '7000', reference: 'R1', receivedBy: 'ops' }, open, terms(10_000n));
    expect(creditedTotal(ledger, terms(10_000n))).toEqual({ expected: 100_000_000n, received: 100_000_000n });
    expect(decideStatus(ledger, terms(10_000n), false).status).toBe('completed');
    // The payout is the price less the bank part, which is already in the merchant's account.
    expect(settlementParts(ledger)).toEqual({
      crypto: { chain: 'base', token: 'USDC', baseUnits: '30000000', decimals: 6 },
      bank: { usdCents: 7000n, references: ['R1'] },
    });
    expect(cryptoPartOwed(ledger, 10_000n)).toBe(30_000_000n);
  });

  it('keeps bank transfers for a refund when the session is closed or takes no bank payments', () => {
    const closed = emptyLedger();
    expect(
      receiveBankTransfer(closed, { amountUsdCents: '100', reference: 'R', receivedBy: 'ops' }, closedAs('expired'), terms(100n)).kind,
    ).toBe('refund');
    const noBank = emptyLedger();
    expect(receiveBankTransfer(noBank, { amountUsdCents: '100', reference: 'R', receivedBy: 'ops' }, open, terms(100n, false)).kind).toBe(
      'refund',
    );
    expect(refundsDue(noBank)).toEqual([{ kind: 'bank', reference: 'R', amountUsdCents: '100' }]);
    expect(noBank.bankReceivedCents).toBe('0');
    expect(settlementParts(noBank)).toEqual({});
  });

  it('counts duplicate signals once', () => {
    const ledger = ledgerFor(5_000_000n);
    const d = transfer(5_000_000n);
    expect(pay(ledger, d).kind).toBe('credited');
    expect(observe(ledger, d, open).kind).toBe('ignored');
    expect(confirm(ledger, { ...d, confirmations: 70 }, open).kind).toBe('ignored');
    expect(ledger.receivedBaseUnits).toBe('5000000');
  });

  it('returns to awaiting payment on a reorg and counts the replacement transfer once', () => {
    const ledger = ledgerFor(5_000_000n);
    const first = transfer(5_000_000n);
    observe(ledger, first, open);
    countConfirmations(ledger, { chain: 'base', txHash: first.txHash, logIndex: 0, confirmations: 20 });
    expect(ledger.deposits[0]!.confirmations).toBe(20);
    expect(reorgDeposit(ledger, first).kind).toBe('reorged');
    expect(decideStatus(ledger, terms(500n), false).status).toBe('awaiting_payment');
    expect(confirm(ledger, { ...first, confirmations: 64 }, open).kind).toBe('credited');
    pay(ledger, transfer(5_000_000n, { txHash: '0xreplacement' }));
    // The same key seen again after a reorg revives; a confirmed deposit never leaves.
    expect(reorgDeposit(ledger, first).kind).toBe('ignored');
    expect(ledger.receivedBaseUnits).toBe('10000000');
  });

  it('revives a reorged deposit seen again under the same key, from its new block', () => {
    const ledger = ledgerFor(5_000_000n);
    const d = transfer(5_000_000n);
    observe(ledger, d, open);
    reorgDeposit(ledger, d);
    expect(observe(ledger, { ...d, blockNumber: '12', blockHash: '0xnew' }, open)).toMatchObject({
      kind: 'tracked',
      deposit: { stage: 'detected', blockNumber: '12', confirmations: 1 },
    });
  });

  it('keeps late deposits for a refund without crediting them', () => {
    const ledger = ledgerFor(5_000_000n);
    const late = transfer(5_000_000n);
    expect(observe(ledger, late, closedAs('expired'))).toMatchObject({
      kind: 'refund',
      reason: 'arrived after the session closed as expired',
    });
    expect(confirm(ledger, { ...late, confirmations: 64 }, closedAs('expired')).kind).toBe('ignored');
    expect(ledger.receivedBaseUnits).toBe('0');
    expect(refundsDue(ledger)).toEqual([
      {
        kind: 'deposit',
        chain: 'base',
        txHash: late.txHash,
        logIndex: 0,
        token: 'USDC',
        amountBaseUnits: '5000000',
        fromAddress: '0xpayer',
      },
    ]);
  });

  it('keeps wrong-token, wrong-chain and dust deposits for a refund without changing the session or its selection', () => {
    const ledger = ledgerFor(5_000_000n);
    const wrongToken = transfer(5_000_000n, { token: 'USDT' });
    expect(observe(ledger, wrongToken, open)).toMatchObject({
      kind: 'refund',
      reason: 'USDT on base received, but the session expects USDC on base',
    });
    expect(confirm(ledger, { ...wrongToken, confirmations: 64 }, open).kind).toBe('ignored');
    expect(observe(ledger, transfer(5_000_000n, { chain: 'polygon' }), open)).toMatchObject({
      kind: 'refund',
      reason: 'USDC on polygon received, but the session expects USDC on base',
    });
    expect(confirm(ledger, { ...transfer(9_999n), confirmations: 64 }, open)).toMatchObject({
      kind: 'refund',
      reason: 'below the minimum deposit',
    });
    expect(decideStatus(ledger, terms(500n), false).status).toBe('awaiting_payment');
    expect(hasCreditableDeposit(ledger)).toBe(false);
    expect(hasPaymentUnderWay(ledger)).toBe(false);
    expect(refundsDue(ledger)).toHaveLength(3);
    // The customer's real payment still completes the session.
    pay(ledger, transfer(10_000n));
    expect(pay(ledger, transfer(4_990_000n)).kind).toBe('credited');
    expect(hasPaymentUnderWay(ledger)).toBe(true);
    expect(decideStatus(ledger, terms(500n), false).status).toBe('completed');
  });

  it('credits a kept deposit the merchant credited once the selection is its pair, also one the state no longer held', () => {
    const ledger = ledgerFor(5_000_000n);
    const wrongToken = { ...transfer(5_000_000n, { token: 'USDT' }), confirmations: 64 };
    pay(ledger, wrongToken);
    expect(refundsDue(ledger)).toHaveLength(1);
    ledger.selection = selection(5_000_000n, 'base', 'USDT');
    expect(creditKeptDeposit(ledger, wrongToken)).toMatchObject({ stage: 'confirmed', late: false, confirmations: 64 });
    expect(ledger.deposits).toHaveLength(1);
    expect(ledger.receivedBaseUnits).toBe('5000000');
    expect(refundsDue(ledger)).toEqual([]);
    expect(decideStatus(ledger, terms(500n), false).status).toBe('completed');

    const forgotten = ledgerFor(5_000_000n, 'polygon');
    creditKeptDeposit(forgotten, { ...transfer(2_000_000n, { chain: 'polygon' }), confirmations: 30 });
    expect(forgotten.deposits).toEqual([expect.objectContaining({ chain: 'polygon', stage: 'confirmed', late: false })]);
    expect(decideStatus(forgotten, terms(500n), false).status).toBe('underpaid');
  });

  it("credits what the confirmation (the indexer's row) says arrived, whatever the detection said", () => {
    const ledger = ledgerFor(5_000_000n);
    const recorded = transfer(1_000_000n, { fromAddress: '0xrealpayer' });
    observe(ledger, { ...recorded, amount: '5000000', fromAddress: '0xclaimed' }, open);
    expect(confirm(ledger, { ...recorded, confirmations: 64 }, open)).toMatchObject({
      kind: 'credited',
      deposit: { amount: '1000000', fromAddress: '0xrealpayer' },
    });
    expect(ledger.receivedBaseUnits).toBe('1000000');

    // Detected as another token, kept for a refund; the row says it is the session's token: it is credited after all.
    const misread = transfer(4_000_000n);
    expect(observe(ledger, { ...misread, token: 'USDT' }, open).kind).toBe('refund');
    expect(confirm(ledger, { ...misread, confirmations: 64 }, open)).toMatchObject({ kind: 'credited', deposit: { late: false } });
    expect(ledger.receivedBaseUnits).toBe('5000000');
    expect(refundsDue(ledger)).toEqual([]);

    // And the other way: detected as the session's token, recorded as another, it is kept for a refund, not credited.
    const other = transfer(4_000_000n, { token: 'USDT' });
    observe(ledger, { ...other, token: 'USDC' }, open);
    expect(confirm(ledger, { ...other, confirmations: 64 }, open)).toMatchObject({ kind: 'refund', deposit: { token: 'USDT' } });
    expect(ledger.receivedBaseUnits).toBe('5000000');
  });

  it('keeps at most MAX_REFUND_DEPOSITS_IN_STATE refund-only deposits in the state, dropping the oldest', () => {
    const ledger = ledgerFor(5_000_000n);
    const credited = transfer(5_000_000n);
    pay(ledger, credited);
    const dust = Array.from({ length: MAX_REFUND_DEPOSITS_IN_STATE + 5 }, () => transfer(1n));
    for (const d of dust) expect(observe(ledger, d, open).kind).toBe('refund');
    expect(ledger.deposits).toHaveLength(MAX_REFUND_DEPOSITS_IN_STATE + 1);
    expect(ledger.deposits[0]!.txHash).toBe(credited.txHash);
    expect(ledger.deposits.at(-1)!.txHash).toBe(dust.at(-1)!.txHash);
    expect(ledger.deposits.some((d) => d.txHash === dust[0]!.txHash)).toBe(false);
  });

  it('on 18 decimals expects a whole micro-unit, so paying the displayed amount completes with nothing due', () => {
    // 0.9998 USD per token: 10.00 USD is 10.002000400080016003… tokens, shown rounded up at 6 decimals.
    const expected = baseUnitsForUsd(1000n, 18, parseRate('0.9998'));
    expect(expected % 10n ** 12n).toBe(0n);
    const shown = toSixDecimalString(expected, 18);
    expect(shown).toBe('10.002001');
    const ledger = ledgerFor(expected, 'bsc', 'USDT', 18);
    const exactTerms: LedgerTerms = {
      amountUsdCents: 1000n,
      tolerance: { bps: 0, minCents: 0n },
      bankAccepted: false,
      minimumDepositMicro: 10_000n,
    };
    pay(ledger, transfer(BigInt(shown.replace('.', '')) * 10n ** 12n, { chain: 'bsc', token: 'USDT' }));
    expect(amountVerdict(ledger, exactTerms)).toBe('exact');
    expect(amountDue(ledger, exactTerms)).toBe(0n);
  });

  it('ignores what lies below a micro-unit on 18 decimals', () => {
    const ledger = ledgerFor(10n ** 18n, 'bsc', 'USDT', 18);
    pay(ledger, transfer(10n ** 18n - 1n, { chain: 'bsc', token: 'USDT' }));
    expect(creditedTotal(ledger, terms(100n))).toEqual({ expected: 1_000_000n, received: 999_999n });
  });

  it('simulates a received amount that judges as the status asked for', () => {
    for (const status of ['completed', 'underpaid', 'overpaid'] as const) {
      const ledger = ledgerFor(25_000_000n);
      simulateReceipt(ledger, status, terms(2500n));
      const verdict = amountVerdict(ledger, terms(2500n));
      expect(verdict).toBe(status === 'completed' ? 'exact' : status === 'underpaid' ? 'under' : 'over');
    }
    const bsc = ledgerFor(25n * 10n ** 18n, 'bsc', 'USDT', 18);
    simulateReceipt(bsc, 'overpaid', terms(2500n));
    expect(BigInt(bsc.receivedBaseUnits) % 10n ** 12n).toBe(0n);
    expect(() => simulateReceipt(emptyLedger(), 'completed', terms(100n))).toThrow('a simulated receipt needs a selected payment');
  });
});
