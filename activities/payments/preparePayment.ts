// select-payment's database side as histories recorded before choosePayment.ts replay it: the payment alone, the
// status change written by recordStatusChange after it, and a Solana pair's address passed in by the workflow
// (reserveDepositIndex.ts, then the signer). A workflow task retried mid-way runs these again, so they stay registered.
import type { PaymentInstructions, PaymentSelection } from '../../domain/wire/payment';
import type { SessionRecord } from '../../domain/wire/session';
import { createChoosePayment, type PaymentDeps } from './choosePayment';

export function createPreparePayment(deps: PaymentDeps) {
  const choosePayment = createChoosePayment(deps);
  return async function preparePayment(record: SessionRecord, selection: PaymentSelection, solanaAddressFromSigner?: string): Promise<PaymentInstructions> {
    const chosen = await choosePayment({ record, selection, ...(solanaAddressFromSigner !== undefined ? { solanaAddressFromSigner } : {}) });
    if ('prepared' in chosen) return chosen.prepared;
    throw new Error(`session ${record.sessionId} has no Solana deposit address yet, and none derived by the signer was given`);
  };
}
