// Postgres advisory locks held to the end of the caller's transaction, keyed by a name: for work that must not run
// twice at once across processes (one signer per treasury, one sweep plan per scope).
import type { Queryable } from '../client';

export async function lockUntilCommit(tx: Queryable, name: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
}
