// Preparing a chosen pair. A Solana deposit address derives from the seed along a hardened-only path, so the
// signer worker computes it for the session's index; EVM and Tron addresses come from xpubs on the session
// worker, so those pairs never wait on the signer.
import { patched } from '@temporalio/workflow';
import { CHAIN_FACTS } from '../domain/chains';
import type { PaymentInstructions, PaymentSelection } from '../domain/payment';
import type { SessionRecord } from '../domain/session';
import { paymentSetup, signer } from './sessionActivities';

/** Where the session worker's own steps run: as activities, or as local activities within the workflow task. */
export type PaymentSetup = Pick<typeof paymentSetup, 'preparePayment' | 'reserveDepositIndex'>;

/**
 * Sessions that chose a Solana pair before the signer existed ran preparePayment alone; their histories must
 * replay that same single activity, so the new steps run only where this patch marker is (or is being) recorded.
 */
const SOLANA_ADDRESS_FROM_SIGNER = 'solana-deposit-address-from-signer';

export async function preparePayment(record: SessionRecord, selection: PaymentSelection, setup: PaymentSetup = paymentSetup): Promise<PaymentInstructions> {
  if (CHAIN_FACTS[selection.chain].family !== 'solana' || !patched(SOLANA_ADDRESS_FROM_SIGNER)) {
    return setup.preparePayment(record, selection);
  }
  const reserved = await setup.reserveDepositIndex(record);
  const solanaAddress = reserved.solanaAddress ?? (await signer().deriveSolanaDepositAddress({ mode: record.mode, index: reserved.index }));
  return setup.preparePayment(record, selection, solanaAddress);
}
