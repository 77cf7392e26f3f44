// The signer's payout activity: one treasury per mode, each held by the signer alone
// (docs/settlement.md#r4-keys-in-the-signer-alone). A mode the operator gave no treasury key answers no_treasury
// without touching the database, so the settlement workflow can choose what that means: test mode settles simulated,
// live mode fails loudly.
import type { Mode } from '../../domain/wire/session';
import { createTreasuryPayout, type PayoutOutcome, type PayoutRequest, type TreasuryPayoutDeps } from './treasuryPayout';

export type TreasuryPayoutAnswer = PayoutOutcome | { status: 'no_treasury' };

export function createPayTreasuryPayout(treasuries: Partial<Record<Mode, TreasuryPayoutDeps>>) {
  const payers = {
    test: treasuries.test && createTreasuryPayout(treasuries.test),
    live: treasuries.live && createTreasuryPayout(treasuries.live),
  };
  return async function payTreasuryPayout(request: PayoutRequest): Promise<TreasuryPayoutAnswer> {
    const pay = payers[request.mode];
    return pay ? pay(request) : { status: 'no_treasury' };
  };
}
