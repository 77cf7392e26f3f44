import { generateKeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { associatedUsdcAccount } from '../../../domain/addresses/solanaTokenAccount';
import {
  judgeAutomaticBacking,
  judgeMerchantBacking,
  judgeRefundRow,
  judgeRefundSession,
  judgeSolanaOwner,
  type AutomaticBacking,
  type RefundToPay,
} from '../../../domain/refunds/refundBacking';

const refund: RefundToPay = {
  id: 'ref_1',
  mode: 'test',
  status: 'claimed',
  source: 'late_deposit',
  token: 'USDC',
  chain: 'solana',
  amountBaseUnits: 5_000_000n,
  amountUsdMicros: 5_000_000n,
  destination: { chain: 'solana', token: 'USDC', address: 'x' },
};

const automatic: AutomaticBacking = {
  refund,
  network: 'testnet',
  deposit: {
    chain: 'solana',
    network: 'testnet',
    token: 'USDC',
    txHash: 'tx',
    logIndex: 1,
    toAddress: 'deposit',
    amount: 5_000_000n,
    stage: 'confirmed',
    confirmations: 32,
    credited: false,
  },
  depositAddress: 'deposit',
  requiredConfirmations: 32,
  decimals: 6,
  merchantShare: 0n,
  refundedBefore: 0n,
  sessionHasPayout: false,
  session: { depositedUsdMicros: 6_000_000n, paidOutUsdMicros: 1_000_000n, refundedUsdMicros: 0n },
};
const reason = (pattern: RegExp) => ({ kind: 'refused', reason: expect.stringMatching(pattern) });

describe('judgeRefundRow', () => {
  it('pays a claimed refund of its mode to a refund route', () => {
    expect(judgeRefundRow(refund, { refundId: 'ref_1', mode: 'test' })).toEqual({ kind: 'backed' });
  });

  it('refuses a missing refund, another mode, a status other than claimed, a destination off the routes', () => {
    expect(judgeRefundRow(undefined, { refundId: 'ref_1', mode: 'test' })).toEqual(reason(/^no refund ref_1$/));
    expect(judgeRefundRow({ ...refund, mode: 'live' }, { refundId: 'ref_1', mode: 'test' })).toEqual(reason(/is a live refund/));
    for (const status of ['pending_claim', 'submitted', 'completed', 'cancelled'] as const)
      expect(judgeRefundRow({ ...refund, status }, { refundId: 'ref_1', mode: 'test' })).toEqual(reason(/not claimed$/));
    expect(
      judgeRefundRow({ ...refund, destination: { chain: 'base', token: 'USDC', address: '0x' } }, { refundId: 'ref_1', mode: 'test' }),
    ).toEqual(reason(/USDC on base is not a refund route/));
  });
});

describe('judgeRefundSession', () => {
  const ofSession = { id: 'ref_1', mode: 'test', merchantId: 'mer_1', sessionId: 'ses_1' } as const;
  it("pays a refund of its session's merchant and mode only", () => {
    expect(judgeRefundSession(ofSession, { merchantId: 'mer_1', mode: 'test' })).toEqual({ kind: 'backed' });
    expect(judgeRefundSession(ofSession, { merchantId: 'mer_2', mode: 'test' })).toEqual(reason(/belongs to merchant mer_2, not to mer_1/));
    expect(judgeRefundSession(ofSession, { merchantId: 'mer_1', mode: 'live' })).toEqual(reason(/is a live session/));
    expect(judgeRefundSession(ofSession, undefined)).toEqual(reason(/no session ses_1/));
  });
});

describe('judgeSolanaOwner', () => {
  it('accepts a wallet and refuses a program-derived address or what is no address', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    expect(judgeSolanaOwner(wallet)).toEqual({ kind: 'backed' });
    expect(judgeSolanaOwner(await associatedUsdcAccount(wallet, wallet))).toEqual(reason(/off the ed25519 curve/));
    expect(judgeSolanaOwner('0xabc')).toEqual(reason(/is not a Solana address/));
  });
});

describe('judgeAutomaticBacking', () => {
  it("pays what the deposit holds beyond the price's share and other refunds, within what the session still holds", () => {
    expect(judgeAutomaticBacking(automatic)).toEqual({ kind: 'backed' });
    expect(judgeAutomaticBacking({ ...automatic, merchantShare: 1n })).toEqual(reason(/the price took 1 and other refunds 0/));
    expect(judgeAutomaticBacking({ ...automatic, refundedBefore: 1n })).toEqual(reason(/other refunds 1/));
    expect(judgeAutomaticBacking({ ...automatic, session: { ...automatic.session, paidOutUsdMicros: 1_000_001n } })).toEqual(
      reason(/5000000 more is not there/),
    );
  });

  it("gives back the price's share of an underpaid session or a failed settlement, only while the session has no payout", () => {
    for (const source of ['underpaid_expired', 'settlement_failed'] as const) {
      const givenBack = { ...automatic, refund: { ...refund, source }, merchantShare: 5_000_000n };
      expect(judgeAutomaticBacking(givenBack)).toEqual({ kind: 'backed' });
      expect(judgeAutomaticBacking({ ...givenBack, refundedBefore: 1n })).toEqual(reason(/other refunds 1/));
      expect(judgeAutomaticBacking({ ...givenBack, sessionHasPayout: true })).toEqual(reason(/its session has a payout/));
    }
    // Any other source leaves the price's share to the merchant, payout or not.
    expect(judgeAutomaticBacking({ ...automatic, merchantShare: 5_000_000n })).toEqual(reason(/the price took 5000000/));
  });

  it('refuses a deposit that is missing, elsewhere, shallow, of another token, or not worth what the refund says', () => {
    const deposit = automatic.deposit!;
    expect(judgeAutomaticBacking({ ...automatic, deposit: undefined })).toEqual(reason(/recorded no such deposit/));
    expect(judgeAutomaticBacking({ ...automatic, depositAddress: 'other' })).toEqual(reason(/not made to its session's deposit address/));
    expect(judgeAutomaticBacking({ ...automatic, depositAddress: null })).toEqual(reason(/not made to its session's deposit address/));
    expect(judgeAutomaticBacking({ ...automatic, deposit: { ...deposit, confirmations: 31 } })).toEqual(reason(/not confirmed 32 blocks/));
    expect(judgeAutomaticBacking({ ...automatic, deposit: { ...deposit, stage: 'reorged' } })).toEqual(reason(/not confirmed/));
    expect(judgeAutomaticBacking({ ...automatic, deposit: { ...deposit, token: 'USDT' } })).toEqual(reason(/the deposit is USDT/));
    expect(judgeAutomaticBacking({ ...automatic, deposit: { ...deposit, network: 'mainnet' } })).toEqual(reason(/solana mainnet/));
    expect(judgeAutomaticBacking({ ...automatic, refund: { ...refund, amountUsdMicros: 5_000_001n } })).toEqual(reason(/is not the worth/));
  });

  it('counts 18-decimal tokens at their 6-decimal worth, and EVM addresses in either case', () => {
    const bsc = {
      ...automatic,
      refund: { ...refund, chain: 'bsc', token: 'USDT', amountBaseUnits: 5n * 10n ** 18n },
      deposit: { ...automatic.deposit!, chain: 'bsc', token: 'USDT', amount: 5n * 10n ** 18n, toAddress: '0xABC' },
      depositAddress: '0xabc',
      decimals: 18,
    } as const;
    expect(judgeAutomaticBacking(bsc)).toEqual({ kind: 'backed' });
  });
});

describe('judgeMerchantBacking', () => {
  const merchant = { ...refund, source: 'merchant' as const, amountBaseUnits: 1_000_000n, amountUsdMicros: 1_000_000n };
  const facts = { refund: merchant, paidOut: 2_000_000n, refundedBefore: 0n, receivable: 0n, merchantFee: 0n, limit: 1_000_000n };

  it('pays what the payouts paid less other refunds, within the limit of what the merchant may owe', () => {
    expect(judgeMerchantBacking(facts)).toEqual({ kind: 'backed' });
    expect(judgeMerchantBacking({ ...facts, refundedBefore: 1_000_001n })).toEqual(reason(/1000001 was refunded already/));
    expect(judgeMerchantBacking({ ...facts, merchantFee: 1n })).toEqual(reason(/would owe 1000001 .* above its limit of 1000000/));
    expect(judgeMerchantBacking({ ...facts, receivable: 1n })).toEqual(reason(/would owe 1000001/));
  });

  it('refuses a merchant refund that is not Solana USDC at one unit per micro-dollar', () => {
    expect(judgeMerchantBacking({ ...facts, refund: { ...merchant, chain: 'base' } })).toEqual(reason(/is of Solana USDC/));
    expect(judgeMerchantBacking({ ...facts, refund: { ...merchant, amountBaseUnits: 999_999n } })).toEqual(reason(/is of Solana USDC/));
  });
});
