// Webhook signatures: `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
// Signing the timestamp with the body lets receivers reject replays of old deliveries. This module is
// also what merchants import to verify deliveries (docs/webhooks.md, "Verifying webhooks").
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const IDEMPOTENCY_HEADER = 'X-Service-Idempotency-Key';
export const EVENT_HEADER = 'X-Service-Event';

export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** One v1 per secret: the current one first, then a previous one still in its rotation overlap. */
export function signatureHeader(secrets: string | readonly string[], timestamp: number, rawBody: string): string {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${timestamp}`, ...all.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`)].join(',');
}

export type VerificationResult = { valid: true; timestamp: number } | { valid: false; reason: string };

/**
 * Verifies a delivery exactly as received: `rawBody` must be the bytes of the request body before any
 * JSON parsing. Accepts several `v1=` values (sent while a secret is being rotated).
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | undefined | null,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): VerificationResult {
  if (!header) return { valid: false, reason: 'missing signature header' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { valid: false, reason: 'malformed signature header' };
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { valid: false, reason: 'timestamp outside the tolerance window' };
  const expected = Buffer.from(
    computeSignature(secret, timestamp, typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')),
    'hex',
  );
  const matches = signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'signature does not match' };
}
