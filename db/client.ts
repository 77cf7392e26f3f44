import postgres from 'postgres';

export type Sql = postgres.Sql;

/**
 * Every pool's guard rails: a statement that runs longer than this is cancelled, and a transaction left
 * idle (a process stuck between two statements while holding row locks) is ended by the server. Migrations
 * lift the statement limit for their own transaction (db/migrate.ts).
 */
export const DATABASE_TIMEOUTS = { statementMs: 30_000, idleInTransactionMs: 60_000 } as const;

export function createSql(url: string, options: { max?: number; statementTimeoutMs?: number; idleInTransactionTimeoutMs?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => undefined,
    // bigint columns come back as JS bigint: money never passes through a float.
    types: { bigint: postgres.BigInt },
    connection: {
      application_name: 'stablecoin-checkout',
      statement_timeout: options.statementTimeoutMs ?? DATABASE_TIMEOUTS.statementMs,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? DATABASE_TIMEOUTS.idleInTransactionMs,
    },
  });
}

/** Either the pool or an open transaction: repository functions run inside or outside one alike. */
export type Queryable = Sql | postgres.TransactionSql;

/**
 * Sends statements back to back without waiting for each answer (pipelining): one round trip for all of them, which
 * Postgres still runs one after another in this order. Meant for a transaction's connection, where a failed statement
 * fails the ones after it and the transaction rolls back. Every value must be one postgres.js can serialize: its error
 * for one that is not lands on the statement in flight, and the transaction waits (choosePayment.ts checks its instants).
 */
export function pipelined(queries: readonly postgres.PendingQuery<postgres.Row[]>[]): Promise<postgres.RowList<postgres.Row[]>[]> {
  // Sent now, in order; their answers are awaited together below.
  for (const query of queries) void query.execute();
  return Promise.all(queries);
}
