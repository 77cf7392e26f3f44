// Dashboard users: each belongs to one merchant and signs in with email and password (and TOTP once enrolled).
import { ulid } from 'ulid';
import type { Queryable } from '../client';
import type { SealedTotpSecret } from '../../domain/security/totpSecretSealing';

export interface MerchantUser {
  id: string;
  merchantId: string;
  email: string;
  passwordHash: string | null;
  /** As stored: sealed under TOTP_ENCRYPTION_KEY (api/dashboard/totp.ts opens it to check a code). */
  totpSecret: SealedTotpSecret | null;
  totpEnabled: boolean;
  failedSignIns: number;
  lockedUntil: Date | null;
  createdAt: Date;
}

interface UserRow {
  id: string;
  merchant_id: string;
  email: string;
  password_hash: string | null;
  totp_secret: SealedTotpSecret | null;
  totp_enabled_at: Date | null;
  failed_sign_ins: number;
  locked_until: Date | null;
  created_at: Date;
}

const toUser = (r: UserRow): MerchantUser => ({
  id: r.id,
  merchantId: r.merchant_id,
  email: r.email,
  passwordHash: r.password_hash,
  totpSecret: r.totp_secret,
  totpEnabled: r.totp_enabled_at !== null,
  failedSignIns: r.failed_sign_ins,
  lockedUntil: r.locked_until,
  createdAt: r.created_at,
});

/** A user without a password yet, or the existing one with that address (undefined if it belongs to another merchant). */
export async function insertInvitedUser(sql: Queryable, merchantId: string, email: string): Promise<MerchantUser | undefined> {
  await sql`insert into merchant_users (id, merchant_id, email) values (${`usr_${ulid()}`}, ${merchantId}, ${email}) on conflict (email) do nothing`;
  const user = await findUserByEmail(sql, email);
  return user?.merchantId === merchantId ? user : undefined;
}

export async function findUserByEmail(sql: Queryable, email: string): Promise<MerchantUser | undefined> {
  const [row] = await sql<UserRow[]>`select * from merchant_users where email = ${email}`;
  return row && toUser(row);
}

export async function findUser(sql: Queryable, id: string): Promise<MerchantUser | undefined> {
  const [row] = await sql<UserRow[]>`select * from merchant_users where id = ${id}`;
  return row && toUser(row);
}

export async function listMerchantUsers(sql: Queryable, merchantId: string): Promise<MerchantUser[]> {
  const rows = await sql<UserRow[]>`select * from merchant_users where merchant_id = ${merchantId} order by created_at, id`;
  return rows.map(toUser);
}

export async function setPasswordHash(sql: Queryable, userId: string, passwordHash: string): Promise<void> {
  await sql`update merchant_users set password_hash = ${passwordHash}, failed_sign_ins = 0, locked_until = null where id = ${userId}`;
}

export async function recordSignInFailure(
  sql: Queryable,
  userId: string,
  state: { failedSignIns: number; lockedUntil: Date | null },
): Promise<void> {
  await sql`update merchant_users set failed_sign_ins = ${state.failedSignIns}, locked_until = ${state.lockedUntil} where id = ${userId}`;
}

export async function recordSignInSuccess(sql: Queryable, userId: string): Promise<void> {
  await sql`update merchant_users set failed_sign_ins = 0, locked_until = null where id = ${userId}`;
}

/** Starts enrolment: the secret signs nothing in until enableTotp confirms a code made with it. */
export async function setPendingTotpSecret(sql: Queryable, userId: string, secret: SealedTotpSecret): Promise<void> {
  await sql`update merchant_users set totp_secret = ${secret} where id = ${userId} and totp_enabled_at is null`;
}

export async function enableTotp(sql: Queryable, userId: string): Promise<void> {
  await sql`update merchant_users set totp_enabled_at = now() where id = ${userId} and totp_secret is not null`;
}

export async function disableTotp(sql: Queryable, userId: string): Promise<void> {
  await sql`update merchant_users set totp_secret = null, totp_enabled_at = null where id = ${userId}`;
}
