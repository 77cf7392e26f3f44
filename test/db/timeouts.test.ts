// Every pool cancels a runaway statement and ends a transaction left idle, so no process
// can hold locks or a connection indefinitely.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, DATABASE_TIMEOUTS } from '../../db/client';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

describe('database timeouts', () => {
  it('sets both limits on every connection by default', async () => {
    const [row] = await db.sql<{ statement: string; idle: string }[]>`
      select current_setting('statement_timeout') as statement, current_setting('idle_in_transaction_session_timeout') as idle`;
    expect(row).toEqual({
      statement: `${DATABASE_TIMEOUTS.statementMs / 1000}s`,
      idle: `${DATABASE_TIMEOUTS.idleInTransactionMs / 60_000}min`,
    });
  });

  it('cancels a statement that runs too long', async () => {
    const sql = createSql(db.url, { max: 1, statementTimeoutMs: 200 });
    try {
      await expect(sql`select pg_sleep(5)`).rejects.toMatchObject({ code: '57014' });
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('ends a transaction left idle, releasing what it held', async () => {
    const sql = createSql(db.url, { max: 1, idleInTransactionTimeoutMs: 200 });
    try {
      const stuck = sql.begin(async (tx) => {
        await tx`select 1`;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await tx`select 1`;
      });
      await expect(stuck).rejects.toMatchObject({ code: expect.stringMatching(/^(25P03|57P05)$|CONNECTION_CLOSED/) });
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
