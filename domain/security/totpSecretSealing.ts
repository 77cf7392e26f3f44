// Dashboard users' TOTP secrets at rest: AES-256-GCM under TOTP_ENCRYPTION_KEY, which the database never holds, so a
// copy of the database (a backup, a read replica, a leaked dump) does not let anyone mint second-factor codes.
// The stored form names its version, `v1:<iv>:<ciphertext>:<tag>` (base64url), so a later scheme can sit beside it;
// the user id is authenticated data, so a sealed secret copied into another user's row does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A secret as stored in merchant_users.totp_secret: only sealTotpSecret makes one. */
export type SealedTotpSecret = string & { readonly sealed: unique symbol };

export const TOTP_ENCRYPTION_KEY_BYTES = 32;
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_PATTERN = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]+):([A-Za-z0-9_-]{22})$/;

export class TotpSecretUnreadableError extends Error {
  override name = 'TotpSecretUnreadableError';
  constructor(userId: string) {
    super(`the TOTP secret of ${userId} does not decrypt with TOTP_ENCRYPTION_KEY (another key, another user's row, or altered)`);
  }
}

const associatedData = (userId: string) => Buffer.from(`merchant_users.totp_secret:${VERSION}:${userId}`, 'utf8');

export function sealTotpSecret(key: Buffer, userId: string, secret: string): SealedTotpSecret {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(userId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join(':') as SealedTotpSecret;
}

/** Whether a stored value is in a sealed form at all; a base32 secret stored before sealing existed never is. */
export function isSealedTotpSecret(stored: string): stored is SealedTotpSecret {
  return SEALED_PATTERN.test(stored);
}

export function openTotpSecret(key: Buffer, userId: string, stored: string): string {
  const match = SEALED_PATTERN.exec(stored);
  if (!match) throw new TotpSecretUnreadableError(userId);
  const [iv, ciphertext, tag] = match.slice(1).map((part) => Buffer.from(part, 'base64url'));
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv!, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(userId));
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
  } catch {
    throw new TotpSecretUnreadableError(userId);
  }
}

/**
 * TOTP_ENCRYPTION_KEY: 32 bytes as 64 hex digits or base64 (standard or URL alphabet). Fewer than 16 distinct
 * bytes is a placeholder (a repeated character or phrase), never what `openssl rand -base64 32` gives.
 */
export function parseTotpEncryptionKey(text: string): { key: Buffer } | { problem: string } {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : undefined;
  if (key?.length !== TOTP_ENCRYPTION_KEY_BYTES)
    return { problem: 'must be 32 bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)' };
  if (new Set(key).size < 16) return { problem: 'must be random (e.g. `openssl rand -base64 32`), not a placeholder' };
  return { key };
}
