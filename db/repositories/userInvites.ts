// One-time invitation links: the token travels in the link, only its hash is stored.
import type { Queryable, Sql } from '../client';
import { hashToken, newOpaqueToken } from '../../domain/security/dashboardSession';
import { insertInvitedUser } from './merchantUsers';

export const INVITE_LIFETIME_MS = 7 * 24 * 3_600_000;

export async function insertInvite(sql: Queryable, userId: string, tokenHash: Buffer, expiresAt: Date): Promise<void> {
  await sql`insert into user_invites (token_hash, user_id, expires_at) values (${tokenHash}, ${userId}, ${expiresAt})`;
}

/** Marks the invitation used and returns its user, or undefined when it is unknown, used or expired. */
export async function consumeInvite(sql: Queryable, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await sql<{ user_id: string }[]>`
    update user_invites set used_at = now()
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()
    returning user_id`;
  return row?.user_id;
}

export async function findOpenInvite(sql: Queryable, tokenHash: Buffer): Promise<{ userId: string } | undefined> {
  const [row] = await sql<{ user_id: string }[]>`
    select user_id from user_invites where token_hash = ${tokenHash} and used_at is null and expires_at > now()`;
  return row && { userId: row.user_id };
}

/**
 * Creates the user (or finds the not-yet-accepted one) and a fresh one-time token for them; the raw token
 * is returned once. Undefined when the address already has an account (of this or another merchant).
 */
export async function inviteUser(sql: Sql, merchantId: string, email: string): Promise<{ userId: string; token: string } | undefined> {
  return sql.begin(async (tx) => {
    const user = await insertInvitedUser(tx, merchantId, email);
    if (!user || user.passwordHash !== null) return undefined;
    const token = newOpaqueToken();
    await insertInvite(tx, user.id, hashToken(token), new Date(Date.now() + INVITE_LIFETIME_MS));
    return { userId: user.id, token };
  });
}
