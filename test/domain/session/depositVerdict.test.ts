// A deposit's verdict as the dashboard words it: credited, or owed back to the customer with the reason the workflow
// kept it for, read back in the order the workflow judges (closed, no method, pair, dust).
import { describe, expect, it } from 'vitest';
import {
  depositVerdict,
  depositVerdictWords,
  owesCustomer,
  type DepositVerdictFacts,
  type SessionTermsForVerdict,
} from '../../../domain/session/depositVerdict';

const closedAt = new Date('2026-11-27T10:00:00Z');
const before = new Date('2026-11-27T09:00:00Z');
const after = new Date('2026-11-27T11:00:00Z');
const terms: SessionTermsForVerdict = { payment: { chain: 'tron', token: 'USDT', decimals: 6 }, closedAt, minimumDepositMicro: 10_000n };
const deposit = (over: Partial<DepositVerdictFacts>): DepositVerdictFacts => ({
  chain: 'tron',
  token: 'USDT',
  amountBaseUnits: 5_000_000n,
  stage: 'confirmed',
  credited: false,
  late: true,
  refundDueBaseUnits: 5_000_000n,
  seenAt: before,
  ...over,
});
const words = (over: Partial<DepositVerdictFacts>, t = terms) => depositVerdictWords(depositVerdict(deposit(over), t));

describe('depositVerdict', () => {
  it('calls a credited deposit credited, and one with refund due credited with its excess owed back', () => {
    expect(words({ credited: true, late: false, refundDueBaseUnits: 0n })).toBe('Credited to the payment');
    expect(words({ credited: true, late: false, refundDueBaseUnits: 1n })).toBe(
      'Credited to the payment; the excess over the price is owed back to the customer',
    );
  });

  it('calls a kept deposit seen after the session closed late, whatever else is wrong with it', () => {
    expect(words({ seenAt: after })).toBe('Owed back to the customer: arrived after the session closed');
    expect(words({ seenAt: closedAt, token: 'USDC', amountBaseUnits: 1n })).toBe(
      'Owed back to the customer: arrived after the session closed',
    );
  });

  it('names the mismatch of a kept deposit seen while the session was open', () => {
    expect(words({}, { ...terms, payment: null })).toBe('Owed back to the customer: arrived before a payment method was chosen');
    expect(words({ chain: 'ethereum', token: 'USDC' })).toBe('Owed back to the customer: sent on another chain than the one chosen');
    expect(words({ token: 'USDC' })).toBe('Owed back to the customer: another token than the one chosen');
    expect(words({ amountBaseUnits: 9_999n })).toBe('Owed back to the customer: below the minimum deposit');
    expect(words({ amountBaseUnits: 10_000n })).toBe('Owed back to the customer: arrived after the session closed');
    expect(words({}, { ...terms, closedAt: undefined })).toBe('Owed back to the customer: arrived after the session closed');
  });

  it('judges dust in micro-units of the chosen token, whatever its decimals', () => {
    const bsc = { ...terms, payment: { chain: 'tron', token: 'USDT', decimals: 18 } };
    expect(words({ amountBaseUnits: 9_999n * 10n ** 12n }, bsc)).toBe('Owed back to the customer: below the minimum deposit');
    expect(words({ amountBaseUnits: 10_000n * 10n ** 12n }, bsc)).toBe('Owed back to the customer: arrived after the session closed');
  });

  it('says a deposit not judged yet is neither credited nor owed back', () => {
    expect(words({ late: false, stage: 'detected' })).toBe('Confirming: not judged yet');
    expect(words({ late: false, stage: 'confirmed' })).toBe('Confirmed: not judged yet');
    expect(words({ late: false, stage: 'reorged' })).toBe('Left the chain (reorganised): neither credited nor owed');
    expect(words({ late: true, stage: 'reorged' })).toBe('Left the chain (reorganised): neither credited nor owed');
  });

  it('owes the customer money for a kept deposit or a credited excess, nothing for a plain credit or a reorg', () => {
    const owes = (over: Partial<DepositVerdictFacts>) => owesCustomer(depositVerdict(deposit(over), terms));
    expect([owes({}), owes({ credited: true, late: false, refundDueBaseUnits: 1n })]).toEqual([true, true]);
    expect([owes({ credited: true, late: false, refundDueBaseUnits: 0n }), owes({ stage: 'reorged' })]).toEqual([false, false]);
  });
});
