// sweep_address_failures (db/migrations/0004_sweep_address_failures.sql): forwarder deposit addresses whose sweep
// reverts in simulation, counted per (mode, chain, token) by the signer's plan; collectorSweepDue leaves an address
// out from the configured count on, until an operator clears it (checkout-admin sweep clear-failure).
import type { CollectorSweepScope } from './collectorSweeps';
import type { Queryable } from '../client';

/** Counts one more failed simulation of the address's sweep; answers how many it has failed. */
export async function recordSweepAddressFailure(
  sql: Queryable,
  scope: CollectorSweepScope,
  address: string,
  error: string,
): Promise<number> {
  const [row] = await sql<{ failures: number }[]>`
    insert into sweep_address_failures (mode, chain, token, address, failures, last_error)
    values (${scope.mode}, ${scope.chain}, ${scope.token}, ${address}, 1, ${error})
    on conflict (mode, chain, token, address)
    do update set failures = sweep_address_failures.failures + 1, last_error = excluded.last_error, last_failed_at = now()
    returning failures`;
  return row!.failures;
}

/** Forgets the failures of addresses whose sweep simulated: a blacklisting lifted before the limit costs nothing. */
export async function clearSweepAddressFailures(sql: Queryable, scope: CollectorSweepScope, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  await sql`delete from sweep_address_failures
            where mode = ${scope.mode} and chain = ${scope.chain} and token = ${scope.token} and address in ${sql(addresses)}`;
}

export interface SweepAddressFailure {
  mode: string;
  chain: string;
  token: string;
  address: string;
  failures: number;
  lastError: string;
  lastFailedAt: Date;
}

/** Every counted address, most failures first. */
export async function listSweepAddressFailures(sql: Queryable): Promise<SweepAddressFailure[]> {
  return sql<SweepAddressFailure[]>`
    select mode, chain, token, address, failures, last_error as "lastError", last_failed_at as "lastFailedAt"
    from sweep_address_failures order by failures desc, last_failed_at desc`;
}

/** An operator's clearing of one address: the next plan takes it again. Answers whether there was a row. */
export async function clearSweepAddressFailure(sql: Queryable, scope: CollectorSweepScope, address: string): Promise<boolean> {
  const deleted = await sql`delete from sweep_address_failures
    where mode = ${scope.mode} and chain = ${scope.chain} and token = ${scope.token} and address = ${address}`;
  return deleted.count > 0;
}
