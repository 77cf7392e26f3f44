// Dashboard cookie sessions, keyed by the SHA-256 of the cookie value.
import type { Queryable } from '../client';

export interface DashboardSession {
  userId: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
}

export async function insertDashboardSession(sql: Queryable, idHash: Buffer, userId: string, csrfToken: string): Promise<void> {
  await sql`insert into dashboard_sessions (id_hash, user_id, csrf_token) values (${idHash}, ${userId}, ${csrfToken})`;
}

export async function findDashboardSession(sql: Queryable, idHash: Buffer): Promise<DashboardSession | undefined> {
  const [row] = await sql<{ user_id: string; csrf_token: string; created_at: Date; last_seen_at: Date }[]>`
    select user_id, csrf_token, created_at, last_seen_at from dashboard_sessions where id_hash = ${idHash}`;
  return row && { userId: row.user_id, csrfToken: row.csrf_token, createdAt: row.created_at, lastSeenAt: row.last_seen_at };
}

export async function touchDashboardSession(sql: Queryable, idHash: Buffer, at: Date): Promise<void> {
  await sql`update dashboard_sessions set last_seen_at = ${at} where id_hash = ${idHash}`;
}

export async function deleteDashboardSession(sql: Queryable, idHash: Buffer): Promise<void> {
  await sql`delete from dashboard_sessions where id_hash = ${idHash}`;
}

/** Sign-out everywhere: every session of the user, on every device, ends. */
export async function deleteUserSessions(sql: Queryable, userId: string): Promise<number> {
  const rows = await sql`delete from dashboard_sessions where user_id = ${userId} returning user_id`;
  return rows.length;
}
