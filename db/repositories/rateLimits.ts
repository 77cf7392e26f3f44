// Request counts in fixed one-minute windows, per API key, per checkout session and per merchant (session-token
// calls), and per client address for dashboard sign-ins and for failed authentications.
// The database clock decides the window, so API replicas with drifting clocks still agree on one count.
import type { Queryable } from '../client';

export interface WindowCount {
  /** Requests counted in the current window, the `by` of this call included. */
  count: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
  /** Milliseconds until the current window ends (at least 1). */
  windowEndsInMs: number;
}

/** Whose budget a request spends: an API key's, or a client address's dashboard sign-ins or failed authentications (sessions: countSessionTokenRequest). */
export type RateLimitSubject = { apiKeyId: string } | { signInIp: string } | { authFailureIp: string };

const WINDOW_TABLES = {
  apiKeyId: ['rate_limit_windows', 'api_key_id'],
  signInIp: ['sign_in_rate_limit_windows', 'ip'],
  authFailureIp: ['auth_failure_windows', 'ip'],
} as const;

/**
 * Counts `by` requests against `subject` with a single upsert; a row from an older window restarts at `by`.
 * More than one is an API replica claiming a lease of request numbers (domain/security/requestLeases.ts).
 */
export async function countRequest(sql: Queryable, subject: RateLimitSubject, by = 1): Promise<WindowCount> {
  const [kind, id] = Object.entries(subject)[0] as [keyof typeof WINDOW_TABLES, string];
  const [table, column] = WINDOW_TABLES[kind];
  const [row] = await sql<{ request_count: number; ms_left: number }[]>`
    insert into ${sql(table)} as w (${sql(column)}, window_start, request_count)
    values (${id}, date_trunc('minute', now()), ${by})
    on conflict (${sql(column)}) do update set
      request_count = case when w.window_start = excluded.window_start then w.request_count + ${by} else ${by} end,
      window_start = excluded.window_start
    returning request_count,
      greatest(1, ceil(extract(epoch from (window_start + interval '1 minute' - now())) * 1000))::integer as ms_left`;
  return { count: row!.request_count, resetSeconds: Math.ceil(row!.ms_left / 1000), windowEndsInMs: row!.ms_left };
}

export interface SessionTokenCounts {
  /** Requests of the session in the current window, this one included. */
  session: number;
  /** Session-token requests of the session's merchant in the current window, this one included; undefined when the session was over its own limit. */
  merchant: number | undefined;
  resetSeconds: number;
}

/**
 * Counts one session-token request against its session and, unless the session is already over
 * `sessionLimit`, against its merchant: one flooding session then spends at most its own limit of the
 * merchant's budget. One statement, so the hosted page's polling pays one round trip for both.
 */
export async function countSessionTokenRequest(
  sql: Queryable,
  session: { sessionId: string; merchantId: string },
  sessionLimit: number,
): Promise<SessionTokenCounts> {
  const [row] = await sql<{ session_count: number; merchant_count: number | null; reset_seconds: number }[]>`
    with s as (
      insert into session_rate_limit_windows as w (session_id, window_start, request_count)
      values (${session.sessionId}, date_trunc('minute', now()), 1)
      on conflict (session_id) do update set
        request_count = case when w.window_start = excluded.window_start then w.request_count + 1 else 1 end,
        window_start = excluded.window_start
      returning request_count,
        greatest(1, ceil(extract(epoch from (window_start + interval '1 minute' - now()))))::integer as reset_seconds
    ), m as (
      insert into merchant_session_token_rate_limit_windows as w (merchant_id, window_start, request_count)
      select ${session.merchantId}, date_trunc('minute', now()), 1 from s where s.request_count <= ${sessionLimit}
      on conflict (merchant_id) do update set
        request_count = case when w.window_start = excluded.window_start then w.request_count + 1 else 1 end,
        window_start = excluded.window_start
      returning request_count
    )
    select s.request_count as session_count, m.request_count as merchant_count, s.reset_seconds from s left join m on true`;
  return { session: row!.session_count, merchant: row!.merchant_count ?? undefined, resetSeconds: row!.reset_seconds };
}
