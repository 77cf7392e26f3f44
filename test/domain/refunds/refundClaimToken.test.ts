import { describe, expect, it } from 'vitest';
import { issueRefundClaimToken, refundClaimUrl, verifyRefundClaimToken } from '../../../domain/refunds/refundClaimToken';
import { issueSessionToken } from '../../../domain/security/sessionToken';

const SECRET = 'a'.repeat(64);
const REFUND_A = 'ref_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const REFUND_B = 'ref_01BX5ZZKBKACTAV9WEVGEMMVRZ';

describe('refund claim tokens', () => {
  it('verifies to the refund it was issued for', () => {
    expect(verifyRefundClaimToken(issueRefundClaimToken(REFUND_A, SECRET), SECRET)).toBe(REFUND_A);
  });

  it('is stable, so a replayed create returns the same claim_url', () => {
    expect(issueRefundClaimToken(REFUND_A, SECRET)).toBe(issueRefundClaimToken(REFUND_A, SECRET));
  });

  it('keeps its derivation, so claim links already sent stay valid', () => {
    expect(issueRefundClaimToken(REFUND_A, SECRET)).toBe(`${REFUND_A}.NErEsB6Cza0x9WQPkiGJbgPAQ7MnfyQKXV6C1tYkug4`);
  });

  it("never grants another refund: a token's signature does not fit a different id", () => {
    const [, signature] = issueRefundClaimToken(REFUND_A, SECRET).split('.');
    expect(verifyRefundClaimToken(`${REFUND_B}.${signature}`, SECRET)).toBeUndefined();
  });

  it('is not interchangeable with a session token of the same id text', () => {
    const [, sessionSignature] = issueSessionToken('cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', SECRET).split('.');
    expect(verifyRefundClaimToken(`${REFUND_A}.${sessionSignature}`, SECRET)).toBeUndefined();
  });

  it.each([
    '',
    'garbage',
    `${REFUND_A}.`,
    `${REFUND_A}.abc.def`,
    `ref_bad.${'x'.repeat(43)}`,
    `cs_01ARZ3NDEKTSV4RRFFQ69G5FAV.${'x'.repeat(43)}`,
  ])('rejects %j', (token) => {
    expect(verifyRefundClaimToken(token, SECRET)).toBeUndefined();
  });

  it('rejects a token issued with another secret', () => {
    expect(verifyRefundClaimToken(issueRefundClaimToken(REFUND_A, 'b'.repeat(64)), SECRET)).toBeUndefined();
  });

  it('builds the claim page URL under the public base URL', () => {
    const url = refundClaimUrl('https://pay.example.com', REFUND_A, SECRET);
    expect(url).toBe(`https://pay.example.com/refunds/${issueRefundClaimToken(REFUND_A, SECRET)}`);
    expect(verifyRefundClaimToken(decodeURIComponent(url.split('/refunds/')[1] ?? ''), SECRET)).toBe(REFUND_A);
  });
});
