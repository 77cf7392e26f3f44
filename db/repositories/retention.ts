// What the retention sweep deletes: rows whose only use has passed. Each table is purged in bounded
// batches, so one sweep never holds long locks whatever the backlog.
import type { RetentionAges } from '../../config/env';
import type { Queryable } from '../client';
import { IDEMPOTENCY_KEY_TTL_SECONDS, purgeExpiredIdempotencyKeys } from './idempotencyKeys';

export type RetentionCounts = Record<
  | 'quotes'
  | 'rateLimitWindows'
  | 'sessionRateLimitWindows'
  | 'merchantSessionTokenRateLimitWindows'
  | 'authFailureWindows'
  | 'idempotencyKeys'
  | 'webhookAttempts'
  | 'webhookTestEvents',
  number
>;

const BATCH = 5_000;

/** Deletes batches until a table has nothing left to purge; the count of rows deleted. */
async function drain(purgeBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await purgeBatch();
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

const deleted = async (rows: PromiseLike<readonly unknown[]>) => (await rows).length;

export async function purgeRetained(sql: Queryable, ages: RetentionAges): Promise<RetentionCounts> {
  /** Rows of a table whose `time` column is before `cutoff`, a batch at a time by row address. */
  const purgeOlder = (table: string, time: string, cutoff: ReturnType<Queryable>) =>
    drain(() =>
      deleted(sql`
        delete from ${sql(table)} where ctid = any(array(select ctid from ${sql(table)} where ${sql(time)} < ${cutoff} limit ${BATCH}))
        returning 1`),
    );
  return {
    quotes: await drain(() =>
      deleted(sql`
        delete from quotes where id = any(array(
          select q.id from quotes q
          where q.expires_at < now() - make_interval(days => ${ages.quoteDays})
            and not exists (select 1 from payments p where p.quote_id = q.id)
          limit ${BATCH}))
        returning 1`),
    ),
    rateLimitWindows: await purgeOlder('rate_limit_windows', 'window_start', sql`now() - make_interval(hours => ${ages.rateLimitHours})`),
    sessionRateLimitWindows: await purgeOlder(
      'session_rate_limit_windows',
      'window_start',
      sql`now() - make_interval(hours => ${ages.rateLimitHours})`,
    ),
    merchantSessionTokenRateLimitWindows: await purgeOlder(
      'merchant_session_token_rate_limit_windows',
      'window_start',
      sql`now() - make_interval(hours => ${ages.rateLimitHours})`,
    ),
    // One row per address that ever failed to authenticate: without the sweep, every address an attacker used stays.
    authFailureWindows: await purgeOlder(
      'auth_failure_windows',
      'window_start',
      sql`now() - make_interval(hours => ${ages.rateLimitHours})`,
    ),
    // Their age is the replay window the API promises, not a retention choice.
    idempotencyKeys: await drain(() => purgeExpiredIdempotencyKeys(sql, IDEMPOTENCY_KEY_TTL_SECONDS, BATCH)),
    webhookAttempts: await drain(() =>
      deleted(sql`
        delete from webhook_attempts where ctid = any(array(
          select a.ctid from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where a.started_at < now() - make_interval(days => ${ages.webhookAttemptDays}) and d.state <> 'pending'
          limit ${BATCH}))
        returning 1`),
    ),
    webhookTestEvents: await purgeOlder('webhook_test_events', 'sent_at', sql`now() - make_interval(days => ${ages.webhookAttemptDays})`),
  };
}
