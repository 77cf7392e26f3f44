// The hosted page's credential (./recordToken.ts): it names its session, so session-token endpoints can find the
// session without a path parameter. Expiry is the session's own.
import { SESSION_ID_PATTERN } from '../wire/ids';
import { issueRecordToken, verifyRecordToken } from './recordToken';

const PURPOSE = 'checkout-session-token:v1';

export const issueSessionToken = (sessionId: string, secret: string): string => issueRecordToken(PURPOSE, sessionId, secret);

/** The session id the token was issued for, or undefined when it was not issued with this secret. */
export const verifySessionToken = (token: string, secret: string): string | undefined =>
  verifyRecordToken(PURPOSE, SESSION_ID_PATTERN, token, secret);
