// Preparing a chosen pair. A Solana deposit address derives from the seed along a hardened-only path, so the
// signer worker computes it for the session's index, mostly ahead (activities/depositAddresses/solanaAddressPool.ts);
// EVM and Tron addresses come from xpubs on the session worker, so those pairs never wait on the signer.
import { patched } from '@temporalio/workflow';
import { CHAIN_FACTS } from '../domain/chains/chains';
import type { PaymentInstructions, PaymentSelection } from '../domain/wire/payment';
import type { SessionRecord, SessionStatusChange } from '../domain/wire/session';
import { paymentSetup, paymentSetupInTask, signer } from './sessionActivities';

/** Where the session worker's own steps run: as activities, or as local activities within the workflow task. */
export type PaymentSetup = Pick<typeof paymentSetup, 'preparePayment' | 'reserveDepositIndex'>;

/**
 * Sessions that chose a Solana pair before the signer existed ran preparePayment alone; their histories must
 * replay that same single activity, so the new steps run only where this patch marker is (or is being) recorded.
 */
const SOLANA_ADDRESS_FROM_SIGNER = 'solana-deposit-address-from-signer';

/** The payment alone, its status change written after it: histories recorded before choosePayment, and simulated choices. */
export async function preparePayment(record: SessionRecord, selection: PaymentSelection, setup: PaymentSetup = paymentSetup): Promise<PaymentInstructions> {
  if (CHAIN_FACTS[selection.chain].family !== 'solana' || !patched(SOLANA_ADDRESS_FROM_SIGNER)) {
    return setup.preparePayment(record, selection);
  }
  const reserved = await setup.reserveDepositIndex(record);
  const solanaAddress = reserved.solanaAddress ?? (await signer().deriveSolanaDepositAddress({ mode: record.mode, index: reserved.index }));
  return setup.preparePayment(record, selection, solanaAddress);
}

/**
 * The payment and the status change in one local activity (activities/payments/choosePayment.ts). Only a Solana
 * index the signer has not derived ahead costs a signer activity, and a second call with its answer.
 */
export async function choosePayment(record: SessionRecord, selection: PaymentSelection, statusChange: SessionStatusChange | undefined): Promise<PaymentInstructions> {
  const choice = { record, selection, ...(statusChange ? { statusChange } : {}) };
  const chosen = await paymentSetupInTask.choosePayment(choice);
  if ('prepared' in chosen) return chosen.prepared;
  const solanaAddressFromSigner = await signer().deriveSolanaDepositAddress({ mode: record.mode, index: chosen.solanaAddressNeeded.index });
  const again = await paymentSetupInTask.choosePayment({ ...choice, solanaAddressFromSigner });
  if ('prepared' in again) return again.prepared;
  throw new Error(`session ${record.sessionId}: the signer's Solana address for index ${chosen.solanaAddressNeeded.index} was not taken`);
}
