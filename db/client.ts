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
