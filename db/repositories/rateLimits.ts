// Per-key request counts in fixed one-minute windows. The database clock decides the window, so API
// replicas with drifting clocks still agree on one count.
import type { Queryable } from '../client';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
}

/** Counts one request against `apiKeyId` with a single upsert; a row from an older window restarts at 1. */
export async function countRequest(sql: Queryable, apiKeyId: string): Promise<WindowCount> {
  const [row] = await sql<{ request_count: number; reset_seconds: number }[]>`
    insert into rate_limit_windows as w (api_key_id, window_start, request_count)
    values (${apiKeyId}, date_trunc('minute', now()), 1)
    on conflict (api_key_id) do update set
      request_count = case when w.window_start = excluded.window_start then w.request_count + 1 else 1 end,
      window_start = excluded.window_start
    returning request_count,
      greatest(1, ceil(extract(epoch from (window_start + interval '1 minute' - now()))))::integer as reset_seconds`;
  return { count: row!.request_count, resetSeconds: row!.reset_seconds };
}
