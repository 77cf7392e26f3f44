// simulate's made-up receipt reaches the read model as a real one does, so the hosted page and the
// merchant's reads agree with the webhook it sends.
import type { Sql } from '../../db/client';
import { setPaymentReceived } from '../../db/repositories/payments';
import { paymentIdForSession } from '../../domain/wire/ids';

export function createRecordSimulatedReceipt(deps: { sql: Sql }) {
  return async function recordSimulatedReceipt(sessionId: string, receivedBaseUnits: string): Promise<void> {
    await setPaymentReceived(deps.sql, paymentIdForSession(sessionId), receivedBaseUnits);
  };
}
