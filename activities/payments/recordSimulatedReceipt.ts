// simulate's made-up receipt reaches the read model as a real one does, so the hosted page and the
// merchant's reads agree with the webhook it sends.
import type { Sql } from '../../db/client';
import { paymentIdForSession } from '../../domain/wire/ids';

export function createRecordSimulatedReceipt(deps: { sql: Sql }) {
  return async function recordSimulatedReceipt(sessionId: string, receivedBaseUnits: string): Promise<void> {
    await deps.sql`update payments set received_base_units = ${receivedBaseUnits}, updated_at = now() where id = ${paymentIdForSession(sessionId)}`;
  };
}
