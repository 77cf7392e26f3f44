import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../db/client';
import { applyStatusChange, insertSessionRecord, sessionIdForExtTransaction } from '../db/repositories/sessions';
import type { SessionRecord, SessionStatusChange } from '../domain/wire/session';
import { WorkflowFailure } from '../domain/session/workflowFailures';

export function createReadModelActivities(deps: { sql: Sql }) {
  return {
    /**
     * The API commits a session's row before it starts the workflow, so normally there is nothing to do.
     * Writes the row only if no session holds the transaction_id yet. A workflow whose transaction_id
     * another session holds was started by an older API whose row was rolled back: it fails for good
     * rather than retrying on the unique key forever.
     */
    async recordSession(record: SessionRecord): Promise<void> {
      // The usual case in one round trip, outside a transaction: a transaction_id never changes session once written.
      if ((await sessionIdForExtTransaction(deps.sql, record)) === record.sessionId) return;
      await deps.sql.begin(async (tx) => {
        const owner = await sessionIdForExtTransaction(tx, record);
        if (owner === record.sessionId) return;
        if (owner !== undefined) {
          throw ApplicationFailure.nonRetryable(
            `transaction_id ${record.extTransactionId} of ${record.merchantId} (${record.mode}) belongs to session ${owner}; session ${record.sessionId} was never created`,
            WorkflowFailure.SessionSuperseded,
          );
        }
        await insertSessionRecord(tx, record, 'pending');
      });
    },
    async recordStatusChange(change: SessionStatusChange): Promise<void> {
      await applyStatusChange(deps.sql, change);
    },
  };
}
