// The claim link's credential, a record token (domain/security/recordToken.ts) like the session token but for its own
// purpose, so a session token can never pass as a claim token or the reverse. A replayed create returns the same
// claim_url, and the token names its refund, so the claim page needs no other parameter. Validity ends with the
// refund's pending_claim.
import { issueRecordToken, verifyRecordToken } from '../security/recordToken';
import { REFUND_ID_PATTERN } from '../wire/ids';

const PURPOSE = 'checkout-refund-claim:v1';

export const issueRefundClaimToken = (refundId: string, secret: string): string => issueRecordToken(PURPOSE, refundId, secret);

/** The refund id the token was issued for, or undefined when it was not issued with this secret. */
export const verifyRefundClaimToken = (token: string, secret: string): string | undefined =>
  verifyRecordToken(PURPOSE, REFUND_ID_PATTERN, token, secret);

/** The hosted claim page of a refund (docs/refunds.md#api). */
export function refundClaimUrl(publicBaseUrl: string, refundId: string, secret: string): string {
  return `${publicBaseUrl}/refunds/${encodeURIComponent(issueRefundClaimToken(refundId, secret))}`;
}
