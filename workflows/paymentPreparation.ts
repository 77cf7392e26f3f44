// Preparing a chosen pair. A Solana deposit address derives from the seed along a hardened-only path, so the
// signer worker computes it for the session's index, mostly ahead (signer/depositAddresses/solanaAddressPool.ts);
// EVM and Tron addresses come from xpubs on the session worker, so those pairs never wait on the signer.
import type { PaymentInstructions, PaymentSelection } from '../domain/wire/payment';
import type { SessionRecord, SessionStatusChange } from '../domain/wire/session';
import { paymentSetup, signer } from './sessionActivities';

/**
 * The payment, and the session's move to awaiting_payment when one is given, in one local activity
 * (activities/payments/choosePayment.ts). Only a Solana
 * index the signer has not derived ahead costs a signer activity, and a second call with its answer.
 */
export async function issuePaymentInstructions(
  record: SessionRecord,
  selection: PaymentSelection,
  statusChange: SessionStatusChange | undefined,
): Promise<PaymentInstructions> {
  const choice = { record, selection, ...(statusChange ? { statusChange } : {}) };
  const chosen = await paymentSetup.choosePayment(choice);
  if ('prepared' in chosen) return chosen.prepared;
  const solanaAddressFromSigner = await signer(record.mode).deriveSolanaDepositAddress({
    mode: record.mode,
    index: chosen.solanaAddressNeeded.index,
  });
  const again = await paymentSetup.choosePayment({ ...choice, solanaAddressFromSigner });
  if ('prepared' in again) return again.prepared;
  throw new Error(`session ${record.sessionId}: the signer's Solana address for index ${chosen.solanaAddressNeeded.index} was not taken`);
}
