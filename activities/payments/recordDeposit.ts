// The workflow's verdict on a deposit: credited to the payment, or late (kept for a refund). The indexer
// alone writes a deposit's row and chain facts (activities/payments/confirmedDepositFacts.ts reads them);
// the workflow only sets its verdict on the row the indexer attributed to this session. A confirmed deposit is posted
// with the verdict (docs/settlement.md#who-owns-each-unit): credited, the part paying the price pending for the
// merchant and the excess owed back to the customer; kept for a refund, all of it owed back to its sender.
import type { Sql } from '../../db/client';
import { postCreditedDeposits, postRefundOnlyDeposit } from '../../db/repositories/depositLedger';
import { setDepositVerdict } from '../../db/repositories/deposits';
import { setPaymentReceived } from '../../db/repositories/payments';
import type { DepositState } from '../../domain/session/deposit';
import { paymentIdForSession } from '../../domain/wire/ids';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

export function createRecordDeposit(deps: { sql: Sql }) {
  return async function recordDeposit(sessionId: string, mode: Mode, deposit: DepositState, creditedTotalBaseUnits: string): Promise<void> {
    const network = networkForMode(mode);
    const paymentId = paymentIdForSession(sessionId);
    await deps.sql.begin(async (tx) => {
      const credited = deposit.stage === 'confirmed' && !deposit.late;
      await setDepositVerdict(tx, sessionId, network, deposit, { credited, late: deposit.late });
      if (deposit.late) await postRefundOnlyDeposit(tx, sessionId, network, deposit);
      if (credited) await postCreditedDeposits(tx, paymentId);
      await setPaymentReceived(tx, paymentId, creditedTotalBaseUnits);
    });
  };
}
