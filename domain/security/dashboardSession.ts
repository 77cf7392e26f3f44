// Dashboard cookie sessions: the cookie holds a random token, the database only its SHA-256, so a leaked
// table cannot be replayed. A session ends after IDLE_TIMEOUT_MS without a request and, however busy,
// ABSOLUTE_LIFETIME_MS after sign-in.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const ABSOLUTE_LIFETIME_MS = 12 * 3_600_000;

export const newOpaqueToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export function sessionExpired(session: { createdAt: Date; lastSeenAt: Date }, now: Date): boolean {
  return (
    now.getTime() - session.lastSeenAt.getTime() > IDLE_TIMEOUT_MS || now.getTime() - session.createdAt.getTime() > ABSOLUTE_LIFETIME_MS
  );
}

/** Constant-time comparison of a CSRF token sent by the page with the one its session holds. */
export function csrfTokenMatches(expected: string, sent: string | undefined): boolean {
  if (!sent) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(sent, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
