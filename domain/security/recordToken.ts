// A credential that names the record it opens: `<id>.<HMAC-SHA256(secret, "<purpose>:<id>")>`. Derived rather than
// stored, so a replayed create hands out the same link, and it carries its id, so its endpoints need no other
// parameter. Each kind of token has its own purpose string, so one kind never passes as another. Pure.
import { createHmac, timingSafeEqual } from 'node:crypto';

function mac(purpose: string, id: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}:${id}`).digest();
}

export function issueRecordToken(purpose: string, id: string, secret: string): string {
  return `${id}.${mac(purpose, id, secret).toString('base64url')}`;
}

/** The id the token was issued for, or undefined when it is not an id of `idPattern` issued for `purpose` with this secret. */
export function verifyRecordToken(purpose: string, idPattern: RegExp, token: string, secret: string): string | undefined {
  const [id, signature, ...rest] = token.split('.');
  if (!id || !signature || rest.length > 0 || !idPattern.test(id)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(purpose, id, secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}
