// The signer's payout activity: one treasury per mode, each held by the signer alone
// (docs/settlement.md#r4-keys-in-the-signer-alone). A mode the operator gave no treasury key answers no_treasury, so
// the settlement workflow can choose what that means (test mode settles simulated, live mode fails loudly), unless
// the payment already has a payout: that one is followed to its end without a key (followPayout), never abandoned.
import type { SolanaChainWriterDeps } from '../chainWrites/solanaChainWriter';
import { findPayout } from '../../db/repositories/payouts';
import type { Mode } from '../../domain/wire/session';
import { createTreasuryPayout, followPayout, type PayoutOutcome, type PayoutRequest, type TreasuryPayoutDeps } from './treasuryPayout';

export type TreasuryPayoutAnswer = PayoutOutcome | { status: 'no_treasury' };

export function createPayTreasuryPayout(
  treasuries: Partial<Record<Mode, TreasuryPayoutDeps>>,
  /** Each keyless mode's database and Solana node, where they are configured: enough to follow a payout written before. */
  followers: Partial<Record<Mode, SolanaChainWriterDeps>> = {},
) {
  const payers = {
    test: treasuries.test && createTreasuryPayout(treasuries.test),
    live: treasuries.live && createTreasuryPayout(treasuries.live),
  };
  return async function payTreasuryPayout(request: PayoutRequest): Promise<TreasuryPayoutAnswer> {
    const pay = payers[request.mode];
    if (pay) return pay(request);
    const follower = followers[request.mode];
    const payout = follower && (await findPayout(follower.sql, request.paymentId));
    if (!follower || !payout) return { status: 'no_treasury' };
    return followPayout(follower, payout, `the signer holds no ${request.mode} treasury key`);
  };
}
