// Idempotency-Key records: who holds a key while its first request runs, and the response to replay after.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

/** How long a key replays its first response; older keys are treated as never used, then purged. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;

export interface IdempotencyScope {
  merchantId: string;
  mode: Mode;
  key: string;
}

export interface IdempotencyTimings {
  /** A key older than this is treated as never used. */
  ttlSeconds: number;
  /** A request still holding its key after this long is taken to have died (process crash) and loses it. */
  lockTimeoutSeconds: number;
}

export type StoredIdempotencyKey =
  { state: 'in_progress'; requestHash: Buffer } | { state: 'completed'; requestHash: Buffer; status: number; body: unknown };

/**
 * Takes the key for `lockToken` when it is unused, expired, or held by a dead request for the same body.
 * Returns true when taken; false when someone else holds or has completed it.
 */
export async function claimIdempotencyKey(
  sql: Queryable,
  scope: IdempotencyScope,
  requestHash: Buffer,
  lockToken: string,
  timings: IdempotencyTimings,
): Promise<boolean> {
  const rows = await sql`
    insert into idempotency_keys as k (merchant_id, mode, idempotency_key, request_hash, locked_by, locked_at)
    values (${scope.merchantId}, ${scope.mode}, ${scope.key}, ${requestHash}, ${lockToken}, now())
    on conflict (merchant_id, mode, idempotency_key) do update set
      request_hash = excluded.request_hash, locked_by = excluded.locked_by, locked_at = excluded.locked_at,
      response_status = null, response_body = null, completed_at = null, created_at = now()
    where k.created_at <= now() - make_interval(secs => ${timings.ttlSeconds})
       or (k.response_status is null and k.request_hash = excluded.request_hash
           and k.locked_at <= now() - make_interval(secs => ${timings.lockTimeoutSeconds}))
    returning 1`;
  return rows.length === 1;
}

/** The key as stored, or undefined when there is none (or only an expired one). */
export async function findIdempotencyKey(
  sql: Queryable,
  scope: IdempotencyScope,
  ttlSeconds: number,
): Promise<StoredIdempotencyKey | undefined> {
  const [row] = await sql<{ request_hash: Buffer; response_status: number | null; response_body: unknown }[]>`
    select request_hash, response_status, response_body from idempotency_keys
    where merchant_id = ${scope.merchantId} and mode = ${scope.mode} and idempotency_key = ${scope.key}
      and created_at > now() - make_interval(secs => ${ttlSeconds})`;
  if (!row) return undefined;
  if (row.response_status === null) return { state: 'in_progress', requestHash: row.request_hash };
  return { state: 'completed', requestHash: row.request_hash, status: row.response_status, body: row.response_body };
}

/** Stores the response of the request holding the key; a request that lost its lock stores nothing. */
export async function completeIdempotencyKey(
  sql: Queryable,
  scope: IdempotencyScope,
  lockToken: string,
  status: number,
  body: unknown,
): Promise<void> {
  await sql`
    update idempotency_keys
    set response_status = ${status}, response_body = ${sql.json(body as Parameters<typeof sql.json>[0])}, completed_at = now(),
        locked_by = null, locked_at = null
    where merchant_id = ${scope.merchantId} and mode = ${scope.mode} and idempotency_key = ${scope.key} and locked_by = ${lockToken}`;
}

/** Gives the key up without a stored result, so the client's retry runs the request again. */
export async function releaseIdempotencyKey(sql: Queryable, scope: IdempotencyScope, lockToken: string): Promise<void> {
  await sql`
    delete from idempotency_keys
    where merchant_id = ${scope.merchantId} and mode = ${scope.mode} and idempotency_key = ${scope.key} and locked_by = ${lockToken}`;
}

/** Deletes up to `limit` expired keys; bounded so that no request ever pays for a large backlog. */
export async function purgeExpiredIdempotencyKeys(sql: Queryable, ttlSeconds: number, limit: number): Promise<number> {
  const rows = await sql`
    delete from idempotency_keys where ctid = any(array(
      select ctid from idempotency_keys where created_at <= now() - make_interval(secs => ${ttlSeconds}) limit ${limit}))
    returning 1`;
  return rows.length;
}
