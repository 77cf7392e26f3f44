import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueRefundClaimToken, verifyRefundClaimToken } from '../../../domain/refunds/refundClaimToken';
import { issueSessionToken } from '../../../domain/security/sessionToken';

const SECRET = 'a'.repeat(64);
const REFUND_A = 'ref_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const REFUND_B = 'ref_01BX5ZZKBKACTAV9WEVGEMMVRZ';

describe('refund claim tokens', () => {
  it('verifies to the refund it was issued for, and is stable', () => {
    const token = issueRefundClaimToken(REFUND_A, SECRET);
    expect(verifyRefundClaimToken(token, SECRET)).toBe(REFUND_A);
    expect(issueRefundClaimToken(REFUND_A, SECRET)).toBe(token);
  });

  it('is the HMAC of the refund id under its own domain string', () => {
    const mac = createHmac('sha256', SECRET).update(`checkout-refund-claim:v1:${REFUND_A}`).digest('base64url');
    expect(issueRefundClaimToken(REFUND_A, SECRET)).toBe(`${REFUND_A}.${mac}`);
  });

  it("never grants another refund: a token's signature does not fit a different id", () => {
    const [, signature] = issueRefundClaimToken(REFUND_A, SECRET).split('.');
    expect(verifyRefundClaimToken(`${REFUND_B}.${signature}`, SECRET)).toBeUndefined();
  });

  it('is not a checkout session token, even for an id of the same characters', () => {
    const [, signature] = issueSessionToken(`cs_${REFUND_A.slice(4)}`, SECRET).split('.');
    expect(verifyRefundClaimToken(`${REFUND_A}.${signature}`, SECRET)).toBeUndefined();
  });

  it.each(['', 'garbage', `${REFUND_A}.`, `${REFUND_A}.abc.def`, `ref_bad.${'x'.repeat(43)}`])('rejects %j', (token) => {
    expect(verifyRefundClaimToken(token, SECRET)).toBeUndefined();
  });

  it('rejects a token issued with another secret', () => {
    expect(verifyRefundClaimToken(issueRefundClaimToken(REFUND_A, 'b'.repeat(64)), SECRET)).toBeUndefined();
  });
});
