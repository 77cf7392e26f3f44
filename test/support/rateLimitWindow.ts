import type { Sql } from '../../db/client';

/**
 * Rate limits count in one-minute windows of the database's clock: a test that starts in a window's last seconds
 * waits for the next one, so no count it makes is split across two windows.
 */
export async function startOfFreshWindow(sql: Sql): Promise<void> {
  const [row] = await sql<{ second: number }[]>`select extract(second from now())::float8 as second`;
  if (row!.second > 55) await new Promise((resolve) => setTimeout(resolve, (61 - row!.second) * 1000));
}
