import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader, verifyWebhookSignature } from '../../../domain/webhooks/webhookSignature';

const SECRET = 'whsec_0123456789abcdef';
const BODY = '{"event":"payment.completed","session_id":"cs_01ARZ3NDEKTSV4RRFFQ69G5FAV"}';
const NOW = 1_795_000_000;

describe('webhook signatures', () => {
  it('is HMAC-SHA256 over "<t>.<raw body>", hex, in t=…,v1=…', () => {
    // Computed independently with Python's hmac module, so a change of scheme cannot pass unnoticed.
    const expected = '41aa64476fc6049a0e2be3168315bc15386b95c111993d14b0c834f4b631ae24';
    expect(computeSignature(SECRET, NOW, BODY)).toBe(expected);
    expect(signatureHeader(SECRET, NOW, BODY)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('accepts a fresh, untampered delivery', () => {
    expect(verifyWebhookSignature(BODY, signatureHeader(SECRET, NOW, BODY), SECRET, 300, NOW + 10)).toEqual({
      valid: true,
      timestamp: NOW,
    });
    expect(verifyWebhookSignature(Buffer.from(BODY), signatureHeader(SECRET, NOW, BODY), SECRET, 300, NOW)).toEqual({
      valid: true,
      timestamp: NOW,
    });
  });

  it('rejects a stale timestamp, even with a valid signature (replay)', () => {
    expect(verifyWebhookSignature(BODY, signatureHeader(SECRET, NOW, BODY), SECRET, 300, NOW + 301)).toEqual({
      valid: false,
      reason: 'timestamp outside the tolerance window',
    });
  });

  it('rejects a tampered body, a re-stamped header and another secret', () => {
    const header = signatureHeader(SECRET, NOW, BODY);
    expect(verifyWebhookSignature(BODY.replace('completed', 'overpaid'), header, SECRET, 300, NOW)).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    expect(verifyWebhookSignature(BODY, header.replace(`t=${NOW}`, `t=${NOW + 5}`), SECRET, 300, NOW)).toMatchObject({ valid: false });
    expect(verifyWebhookSignature(BODY, header, 'whsec_other', 300, NOW)).toMatchObject({ valid: false });
  });

  it('accepts any of several v1 signatures (secret rotation) and rejects malformed headers', () => {
    const both = `t=${NOW},v1=${computeSignature('whsec_old', NOW, BODY)},v1=${computeSignature(SECRET, NOW, BODY)}`;
    expect(verifyWebhookSignature(BODY, both, SECRET, 300, NOW)).toMatchObject({ valid: true });
    for (const header of [undefined, '', 'v1=abc', `t=${NOW}`, 't=soon,v1=abc']) {
      expect(verifyWebhookSignature(BODY, header, SECRET, 300, NOW)).toMatchObject({ valid: false });
    }
  });
});
