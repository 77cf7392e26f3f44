import postgres from 'postgres';

export type Sql = postgres.Sql;

export function createSql(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => undefined,
    // bigint columns come back as JS bigint: money never passes through a float.
    types: { bigint: postgres.BigInt },
    connection: { application_name: 'stablecoin-checkout' },
  });
}

/** Either the pool or an open transaction: repository functions run inside or outside one alike. */
export type Queryable = Sql | postgres.TransactionSql;
