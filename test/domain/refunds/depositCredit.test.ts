// When a merchant may credit an unmatched deposit to its session instead of refunding it.
import { describe, expect, it } from 'vitest';
import { depositCreditRefusal, type DepositToCredit, type SessionForCredit } from '../../../domain/refunds/depositCredit';

const polygonUsdc: DepositToCredit = {
  chain: 'polygon',
  token: 'USDC',
  amountBaseUnits: 10_000_000n,
  decimals: 6,
  refund: { source: 'wrong_chain', status: 'pending_claim' },
};

const openSession: SessionForCredit = {
  open: true,
  supportedTokens: { USDC: ['base', 'polygon'], USDT: ['tron'] },
  countedPairs: [],
  minimumDepositMicro: 10_000n,
};

const reason = (deposit: Partial<DepositToCredit>, session: Partial<SessionForCredit> = {}) =>
  depositCreditRefusal({ ...polygonUsdc, ...deposit }, { ...openSession, ...session })?.reason;

describe('depositCreditRefusal', () => {
  it('lets a wrong-chain or wrong-token deposit in an accepted pair be credited to an open session', () => {
    expect(reason({})).toBeUndefined();
    expect(reason({ chain: 'tron', token: 'USDT', refund: { source: 'wrong_token', status: 'pending_claim' } })).toBeUndefined();
  });

  it('never credits a late deposit, dust, or a deposit without an automatic refund', () => {
    expect(reason({ refund: { source: 'late_deposit', status: 'pending_claim' } })).toBe('not_unmatched');
    expect(reason({ refund: { source: 'dust', status: 'pending_claim' } })).toBe('not_unmatched');
    expect(reason({ refund: null })).toBe('not_unmatched');
  });

  it('calls a wrong-pair deposit below the minimum dust, in its own decimals', () => {
    expect(reason({ amountBaseUnits: 9_999n })).toBe('dust');
    expect(reason({ amountBaseUnits: 10_000n })).toBeUndefined();
    expect(
      reason(
        { chain: 'bsc', token: 'USDT', decimals: 18, amountBaseUnits: 9_999_999_999_999_999n },
        { supportedTokens: { USDT: ['bsc'] } },
      ),
    ).toBe('dust');
  });

  it('refuses once the session is closed or past its expiry', () => {
    expect(reason({}, { open: false })).toBe('closed');
  });

  it('refuses a pair the session does not accept', () => {
    expect(reason({}, { supportedTokens: { USDC: ['base'] } })).toBe('not_accepted');
    expect(reason({ token: 'USDT', refund: { source: 'wrong_token', status: 'pending_claim' } })).toBe('not_accepted');
  });

  it('refuses once its refund was claimed, is being paid, or ended', () => {
    for (const status of ['claimed', 'submitted', 'completed', 'failed', 'expired', 'cancelled'] as const)
      expect(reason({ refund: { source: 'wrong_chain', status } })).toBe('refund_moved');
  });

  it('refuses while the session counts a payment in another pair, not one in the same pair', () => {
    expect(reason({}, { countedPairs: [{ chain: 'base', token: 'USDC' }] })).toBe('other_pair_counted');
    expect(reason({}, { countedPairs: [{ chain: 'polygon', token: 'USDT' }] })).toBe('other_pair_counted');
    expect(reason({}, { countedPairs: [{ chain: 'polygon', token: 'USDC' }] })).toBeUndefined();
  });
});
