// While a paid session's payout waits for the treasury, its read model says why it is still
// confirming ("awaiting settlement liquidity"), counted and logged once per wait; when the payout proceeds the
// session says again what its last status change said. The timeline records no change of status for either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiquidityWaitActivities, type LiquidityWait } from '../../../activities/settlement/liquidityWait';
import { applyStatusChange, insertSessionRecord } from '../../../db/repositories/sessions';
import { paymentIdForSession } from '../../../domain/wire/ids';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant, type TestMerchant } from '../../support/factories';
import { recordingActivity } from '../../support/recordingActivity';
import { sessionRecord } from '../../support/sessionRecords';

let db: TestDatabase;
let merchant: TestMerchant;
const { environment: activity, errors, counted, clear } = recordingActivity();

beforeAll(async () => {
  db = await createTestDatabase();
  merchant = await createTestMerchant(db.sql);
});
afterAll(() => db?.drop());

/** A session whose deposit was confirmed: `confirming`, with the workflow's reason for it. */
async function confirmingSession(): Promise<LiquidityWait> {
  const record = sessionRecord(merchant.merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(db.sql, record, 'awaiting_payment');
  await applyStatusChange(db.sql, {
    sessionId: record.sessionId,
    status: 'confirming',
    at: new Date().toISOString(),
    version: 2,
    reason: 'deposit 0xab confirmed with 64 confirmations',
  });
  return {
    sessionId: record.sessionId,
    paymentId: paymentIdForSession(record.sessionId),
    mode: 'test',
    usdcShortfall: '5000000',
    lamportsShortfall: '0',
  };
}

const read = async (sessionId: string) => {
  const [row] =
    await db.sql`select status, status_reason as reason, (select count(*)::int from session_status_changes where session_id = ${sessionId}) as changes from sessions where id = ${sessionId}`;
  return row;
};

describe('a payout awaiting liquidity', () => {
  it('shows on its session, alerts once per wait, and gives way to the last reason when the payout proceeds', async () => {
    const { recordLiquidityWait, endLiquidityWait } = createLiquidityWaitActivities({ sql: db.sql });
    const wait = await confirmingSession();
    const before = await read(wait.sessionId);

    await activity.run(recordLiquidityWait, wait);
    await activity.run(recordLiquidityWait, wait);
    expect(await read(wait.sessionId)).toEqual({ status: 'confirming', reason: 'awaiting settlement liquidity', changes: before?.changes });
    expect(counted).toEqual([{ name: 'checkout_settlement_liquidity_waits', value: 1, tags: expect.objectContaining({ mode: 'test' }) }]);
    expect(errors).toEqual([
      {
        message: 'treasury short: a payout awaits settlement liquidity; top up the treasury',
        meta: expect.objectContaining({ paymentId: wait.paymentId, usdcShortfall: '5000000' }),
      },
    ]);

    await activity.run(endLiquidityWait, wait.sessionId);
    expect(await read(wait.sessionId)).toEqual({
      status: 'confirming',
      reason: 'deposit 0xab confirmed with 64 confirmations',
      changes: before?.changes,
    });
  });

  it('leaves a session that is no longer confirming as it is', async () => {
    const { recordLiquidityWait } = createLiquidityWaitActivities({ sql: db.sql });
    const wait = await confirmingSession();
    await applyStatusChange(db.sql, {
      sessionId: wait.sessionId,
      status: 'completed',
      at: new Date().toISOString(),
      version: 3,
      reason: 'settled',
    });
    clear();
    await activity.run(recordLiquidityWait, wait);
    expect(await read(wait.sessionId)).toMatchObject({ status: 'completed', reason: 'settled' });
    expect(counted).toEqual([]);
  });
});
