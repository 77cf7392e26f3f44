// The hosted page's credential: `<session_id>.<HMAC-SHA256(secret, session_id)>`. It is derived rather than
// stored, so a replayed create-session returns the same checkout_url_with_token, and it names its session,
// so session-token endpoints can find the session without a path parameter. Expiry is the session's own.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SESSION_ID_PATTERN } from '../wire/ids';

function mac(sessionId: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`checkout-session-token:v1:${sessionId}`).digest();
}

export function issueSessionToken(sessionId: string, secret: string): string {
  return `${sessionId}.${mac(sessionId, secret).toString('base64url')}`;
}

/** The session id the token was issued for, or undefined when it was not issued with this secret. */
export function verifySessionToken(token: string, secret: string): string | undefined {
  const [sessionId, signature, ...rest] = token.split('.');
  if (!sessionId || !signature || rest.length > 0 || !SESSION_ID_PATTERN.test(sessionId)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(sessionId, secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? sessionId : undefined;
}
