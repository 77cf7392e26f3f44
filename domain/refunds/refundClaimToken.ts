// The claim link's credential: `<ref_id>.<HMAC-SHA256(secret, ref_id)>`, derived like the session token
// (domain/security/sessionToken.ts) but under its own domain string, so a session token can never pass as a
// claim token or the reverse. Derived, not stored: a replayed create returns the same claim_url, and the token
// names its refund, so the claim page needs no other parameter. Validity ends with the refund's pending_claim.
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

/** The hosted claim page of a refund (docs/refunds.md#api). */
export function refundClaimUrl(publicBaseUrl: string, refundId: string, secret: string): string {
  return `${publicBaseUrl}/refunds/${encodeURIComponent(issueRefundClaimToken(refundId, secret))}`;
}
