// The workflow's verdict on a deposit: credited to the payment, or late (kept for a refund). The indexer
// alone writes a deposit's row and chain facts (activities/payments/confirmedDepositFacts.ts reads them);
// the workflow only sets its verdict on the row the indexer attributed to this session.
import type { Sql } from '../../db/client';
import type { DepositState } from '../../domain/session/deposit';
import { paymentIdForSession } from '../../domain/wire/ids';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';

export function createRecordDeposit(deps: { sql: Sql }) {
  return async function recordDeposit(sessionId: string, mode: Mode, deposit: DepositState, creditedTotalBaseUnits: string): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await tx`
        update deposits set credited = ${deposit.stage === 'confirmed' && !deposit.late}, late = ${deposit.late}, updated_at = now()
        where chain = ${deposit.chain} and tx_hash = ${deposit.txHash} and log_index = ${deposit.logIndex}
          and network = ${networkForMode(mode)} and session_id = ${sessionId}`;
      await tx`
        update payments set received_base_units = ${creditedTotalBaseUnits}, updated_at = now()
        where id = ${paymentIdForSession(sessionId)}`;
    });
  };
}
