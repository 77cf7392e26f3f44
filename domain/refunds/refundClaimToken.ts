// The customer's claim link credential: `<ref_id>.<HMAC-SHA256(secret, domain ‖ ref_id)>`, made with the API's session
// token secret under its own domain string, so a checkout token can never pass for a claim token nor the other way.
// Derived rather than stored, like the session token (../security/sessionToken.ts): the same refund always has the
// same link, and the link names its refund. Expiry is the refund's own.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { REFUND_ID_PATTERN } from '../wire/ids';

function mac(refundId: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`checkout-refund-claim:v1:${refundId}`).digest();
}

export function issueRefundClaimToken(refundId: string, secret: string): string {
  return `${refundId}.${mac(refundId, secret).toString('base64url')}`;
}

/** The refund id the token was issued for, or undefined when it was not issued with this secret. */
export function verifyRefundClaimToken(token: string, secret: string): string | undefined {
  const [refundId, signature, ...rest] = token.split('.');
  if (!refundId || !signature || rest.length > 0 || !REFUND_ID_PATTERN.test(refundId)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(refundId, secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? refundId : undefined;
}
