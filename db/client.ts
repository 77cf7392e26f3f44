import postgres from 'postgres';

export type Sql = postgres.Sql;

/**
 * Every pool's guard rails: a statement that runs longer than this is cancelled, and a transaction left
 * idle (a process stuck between two statements while holding row locks) is ended by the server. Migrations
 * lift the statement limit for their own transaction (db/migrate.ts).
 */
export const DATABASE_TIMEOUTS = { statementMs: 30_000, idleInTransactionMs: 60_000 } as const;

export function createSql(
  url: string,
  options: { max?: number; statementTimeoutMs?: number; idleInTransactionTimeoutMs?: number } = {},
): Sql {
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
 * Postgres still runs one after another in this order when they share a connection (a transaction's or a reserved
 * one; on the pool each may take another). Every value must be one postgres.js can serialize: its error for one that
 * is not lands on the statement in flight, and the statements wait (choosePayment.ts checks its instants).
 */
export function pipelined<T extends readonly Statement[]>(queries: readonly [...T]): Promise<Answers<T>> {
  // Sent now, in order; their answers are awaited together below.
  for (const query of queries) void query.execute();
  return Promise.all(queries) as Promise<Answers<T>>;
}

/**
 * A transaction in one round trip: BEGIN, the statements and COMMIT pipelined on a connection of its own. A failed
 * statement fails the ones after it and turns the COMMIT into a rollback, so nothing of it stays, and the first
 * failure in the order sent is the cause; the connection goes back to the pool only once Postgres has answered them
 * all. Each round trip costs the process a socket write and a wake-up of the Postgres backend, which on a loaded
 * machine is most of a short statement's cost, and a lock taken in the transaction is held for no round trip at all.
 */
export async function transactionInOneRoundTrip<T extends readonly Statement[]>(
  sql: Sql,
  statements: (tx: postgres.ReservedSql) => readonly [...T],
): Promise<Answers<T>> {
  const tx = await sql.reserve();
  try {
    const sent = [tx`begin`, ...statements(tx), tx`commit`];
    for (const query of sent) void query.execute();
    const answers = await Promise.allSettled(sent);
    const failed = answers.find((answer) => answer.status === 'rejected');
    if (failed) throw failed.reason;
    return answers.slice(1, -1).map((answer) => (answer as PromiseFulfilledResult<unknown>).value) as Answers<T>;
  } finally {
    tx.release();
  }
}

/** A statement built and not yet sent (postgres.js sends one when it is awaited or executed). */
type Statement = PromiseLike<unknown> & { execute(): unknown };
type Answers<T extends readonly Statement[]> = { -readonly [K in keyof T]: Awaited<T[K]> };
