// The workflow's verdict on a deposit: credited to the payment, or late (kept for a refund). The indexer
// owns the chain facts (block, stage, confirmations): a row it wrote keeps them; only the verdict changes.
// Without an indexer (bank-free tests, replays) the insert records the facts as the workflow saw them.
import type { Sql } from '../../db/client';
import { paymentIdForSession } from '../../domain/ids';
import type { Mode } from '../../domain/session';
import type { DepositState } from '../../domain/deposit';
import { networkForMode } from '../../domain/payablePairs';

export function createRecordDeposit(deps: { sql: Sql }) {
  return async function recordDeposit(sessionId: string, mode: Mode, deposit: DepositState, creditedTotalBaseUnits: string): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await tx`
        insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                              block_number, block_hash, stage, confirmations, credited, late)
        values (${deposit.chain}, ${deposit.txHash}, ${deposit.logIndex}, ${networkForMode(mode)}, ${sessionId}, ${deposit.token},
                ${deposit.amount}, ${deposit.fromAddress}, ${deposit.toAddress}, ${deposit.blockNumber}, ${deposit.blockHash},
                ${deposit.stage}, ${deposit.confirmations}, ${deposit.stage === 'confirmed' && !deposit.late}, ${deposit.late})
        on conflict (chain, tx_hash, log_index) do update set
          session_id = excluded.session_id, credited = excluded.credited, late = excluded.late, updated_at = now()`;
      await tx`
        update payments set received_base_units = ${creditedTotalBaseUnits}, updated_at = now()
        where id = ${paymentIdForSession(sessionId)}`;
    });
  };
}
