// Request counts in fixed one-minute windows, per API key, per checkout session (session-token calls), and
// per client address for dashboard sign-ins and for failed authentications.
// The database clock decides the window, so API replicas with drifting clocks still agree on one count.
import type { Queryable } from '../client';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
}

/** Whose budget a request spends: an API key's, a checkout session's, or a client address's dashboard sign-ins or failed authentications. */
export type RateLimitSubject = { apiKeyId: string } | { sessionId: string } | { signInIp: string } | { authFailureIp: string };

const WINDOW_TABLES = {
  apiKeyId: ['rate_limit_windows', 'api_key_id'],
  sessionId: ['session_rate_limit_windows', 'session_id'],
  signInIp: ['sign_in_rate_limit_windows', 'ip'],
  authFailureIp: ['auth_failure_windows', 'ip'],
} as const;

/** Counts one request against `subject` with a single upsert; a row from an older window restarts at 1. */
export async function countRequest(sql: Queryable, subject: RateLimitSubject): Promise<WindowCount> {
  const [kind, id] = Object.entries(subject)[0] as [keyof typeof WINDOW_TABLES, string];
  const [table, column] = WINDOW_TABLES[kind];
  const [row] = await sql<{ request_count: number; reset_seconds: number }[]>`
    insert into ${sql(table)} as w (${sql(column)}, window_start, request_count)
    values (${id}, date_trunc('minute', now()), 1)
    on conflict (${sql(column)}) do update set
      request_count = case when w.window_start = excluded.window_start then w.request_count + 1 else 1 end,
      window_start = excluded.window_start
    returning request_count,
      greatest(1, ceil(extract(epoch from (window_start + interval '1 minute' - now()))))::integer as reset_seconds`;
  return { count: row!.request_count, resetSeconds: row!.reset_seconds };
}
