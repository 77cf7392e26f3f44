// The session workflow on the Java time-skipping test server, with its activities writing to a real
// Postgres read model.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createWorker } from '../../worker/createWorker';
import { getStateQuery } from '../../workflows/messages';
import type { checkoutSession } from '../../workflows/checkoutSession';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';
import { createTimeSkippingEnvironment } from '../support/timeSkipping';

const TASK_QUEUE = 'checkout-session-workflow-test';
let env: TestWorkflowEnvironment;
let db: TestDatabase;
let merchantId: string;

beforeAll(async () => {
  const started = performance.now();
  [env, db] = await Promise.all([createTimeSkippingEnvironment(), createTestDatabase()]);
  console.log(`[checkoutSession.test] time-skipping test server ready in ${Math.round(performance.now() - started)} ms`);
  merchantId = (await createTestMerchant(db.sql)).merchant.id;
});

/** A worker runs once, so each test gets its own for the length of `fn`. */
async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
  const worker = await createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: TASK_QUEUE,
    sql: db.sql,
    workflowBundle: { code: inject('workflowBundleCode') },
  });
  return worker.runUntil(fn);
}

afterAll(async () => {
  await env?.teardown();
  await db?.drop();
});

async function readModelStatus(sessionId: string) {
  const [row] = await db.sql<{ status: string; updated_at: Date; status_version: number }[]>`
    select status, updated_at, status_version from sessions where id = ${sessionId}`;
  return row;
}

describe('checkoutSession workflow', () => {
  it('expires a 60-minute session at expires_at and records it in the read model', async () => {
    const record = sessionRecord(merchantId, { createdAt: new Date(await env.currentTimeMs()), lifetimeMinutes: 60 });
    const { final, wallMs } = await withWorker(async () => {
      const wallStart = performance.now();
      const result = await env.client.workflow.execute<typeof checkoutSession>('checkoutSession', {
        workflowId: record.sessionId,
        taskQueue: TASK_QUEUE,
        args: [record],
      });
      return { final: result, wallMs: performance.now() - wallStart };
    });
    console.log(`[checkoutSession.test] 60 minutes of workflow time took ${Math.round(wallMs)} ms of wall time`);

    expect(final.status).toBe('expired');
    expect(final.transitions.map((t) => t.status)).toEqual(['pending', 'expired']);
    const expiredAt = Date.parse(final.transitions[1]!.at);
    expect(expiredAt).toBeGreaterThanOrEqual(Date.parse(record.expiresAt));
    expect(expiredAt - Date.parse(record.expiresAt)).toBeLessThan(60_000);

    const row = await readModelStatus(record.sessionId);
    expect(row?.status).toBe('expired');
    expect(row?.status_version).toBe(1);
    expect(row?.updated_at.getTime()).toBe(expiredAt);
  });

  it('writes the read model itself when the API never did, and stays pending until expiry', async () => {
    const record = sessionRecord(merchantId, { createdAt: new Date(await env.currentTimeMs()), lifetimeMinutes: 30 });
    expect(await readModelStatus(record.sessionId)).toBeUndefined();
    await withWorker(async () => {
      const handle = await env.client.workflow.start<typeof checkoutSession>('checkoutSession', {
        workflowId: record.sessionId,
        taskQueue: TASK_QUEUE,
        args: [record],
      });
      await env.sleep('10 minutes');
      expect((await handle.query(getStateQuery)).status).toBe('pending');
      const [transaction] = await db.sql`select ext_transaction_id from transactions where session_id = ${record.sessionId}`;
      expect(transaction?.ext_transaction_id).toBe(record.extTransactionId);
      expect((await readModelStatus(record.sessionId))?.status).toBe('pending');
      await handle.result();
    });
    expect((await readModelStatus(record.sessionId))?.status).toBe('expired');
  });
});
