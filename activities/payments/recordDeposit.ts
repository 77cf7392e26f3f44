// The workflow's verdict on a deposit: credited to the payment, or late (kept for a refund). The indexer
// alone writes a deposit's row and chain facts (activities/payments/confirmedDepositFacts.ts reads them);
// the workflow only sets its verdict on the row the indexer attributed to this session.
import type { Sql } from '../../db/client';
import { setDepositVerdict } from '../../db/repositories/deposits';
import { setPaymentReceived } from '../../db/repositories/payments';
import type { DepositState } from '../../domain/session/deposit';
import { paymentIdForSession } from '../../domain/wire/ids';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

export function createRecordDeposit(deps: { sql: Sql }) {
  return async function recordDeposit(sessionId: string, mode: Mode, deposit: DepositState, creditedTotalBaseUnits: string): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await setDepositVerdict(tx, sessionId, networkForMode(mode), deposit, {
        credited: deposit.stage === 'confirmed' && !deposit.late,
        late: deposit.late,
      });
      await setPaymentReceived(tx, paymentIdForSession(sessionId), creditedTotalBaseUnits);
    });
  };
}
