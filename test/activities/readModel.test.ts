// recordSession, the session workflow's first activity: a no-op for the row the API committed, a write when
// no session holds the transaction_id, and a non-retryable failure for a workflow whose transaction_id
// another session holds (an orphan of the API that started workflows before committing their rows).
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReadModelActivities } from '../../activities/readModel';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;
let merchant: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  merchant = await createTestMerchant(db.sql);
});
afterAll(() => db?.drop());

const record = () => sessionRecord(merchant.merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });

async function rowsFor(extTransactionId: string) {
  return db.sql<{ session_id: string; status: string }[]>`
    select t.session_id, s.status from transactions t join sessions s on s.id = t.session_id where t.ext_transaction_id = ${extTransactionId}`;
}

describe('recordSession', () => {
  it("leaves the API's committed row as it is, found in one statement without a transaction", async () => {
    const r = record();
    await db.sql.begin((tx) => insertSessionRecord(tx, r, 'pending', { awaitingWorkflowStart: true }));
    await db.sql`update sessions set status = 'awaiting_payment' where id = ${r.sessionId}`;
    const begin = vi.spyOn(db.sql, 'begin');
    try {
      await createReadModelActivities({ sql: db.sql }).recordSession(r);
      expect(begin).not.toHaveBeenCalled();
    } finally {
      begin.mockRestore();
    }
    expect(await rowsFor(r.extTransactionId)).toEqual([{ session_id: r.sessionId, status: 'awaiting_payment' }]);
  });

  it('writes the row when no session holds the transaction_id', async () => {
    const r = record();
    await createReadModelActivities({ sql: db.sql }).recordSession(r);
    expect(await rowsFor(r.extTransactionId)).toEqual([{ session_id: r.sessionId, status: 'pending' }]);
  });

  it('fails for good, writing nothing, when another session holds the transaction_id', async () => {
    const kept = record();
    await db.sql.begin((tx) => insertSessionRecord(tx, kept, 'pending'));
    const orphan = { ...record(), extTransactionId: kept.extTransactionId };
    const failure = await createReadModelActivities({ sql: db.sql })
      .recordSession(orphan)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: WorkflowFailure.SessionSuperseded, nonRetryable: true });
    expect((failure as Error).message).toBe(
      `transaction_id ${kept.extTransactionId} of ${merchant.merchant.id} (test) belongs to session ${kept.sessionId}; session ${orphan.sessionId} was never created`,
    );
    expect(await rowsFor(kept.extTransactionId)).toEqual([{ session_id: kept.sessionId, status: 'pending' }]);
    expect(await db.sql`select id from sessions where id = ${orphan.sessionId}`).toHaveLength(0);
  });
});
