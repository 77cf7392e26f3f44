import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isSealedTotpSecret,
  openTotpSecret,
  parseTotpEncryptionKey,
  sealTotpSecret,
  TotpSecretUnreadableError,
} from '../../../domain/security/totpSecretSealing';

const KEY = randomBytes(32);
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ADA = 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const BOB = 'usr_01BX5ZZKBKACTAV9WEVGEMMVRZ';

/** The sealed form with one base64url part replaced. */
function withPart(sealed: string, index: number, change: (bytes: Buffer) => Buffer): string {
  const parts = sealed.split(':');
  parts[index] = change(Buffer.from(parts[index]!, 'base64url')).toString('base64url');
  return parts.join(':');
}
const flipFirstBit = (bytes: Buffer) => Buffer.concat([Buffer.from([bytes[0]! ^ 1]), bytes.subarray(1)]);

describe('TOTP secret sealing', () => {
  it('opens to the secret it sealed, in a versioned form that holds no trace of the secret', () => {
    const sealed = sealTotpSecret(KEY, ADA, SECRET);
    expect(sealed).toMatch(/^v1:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    expect(sealed).not.toContain(SECRET);
    expect(isSealedTotpSecret(sealed)).toBe(true);
    expect(openTotpSecret(KEY, ADA, sealed)).toBe(SECRET);
  });

  it('uses a fresh IV each time, so equal secrets do not look equal at rest', () => {
    expect(sealTotpSecret(KEY, ADA, SECRET)).not.toBe(sealTotpSecret(KEY, ADA, SECRET));
  });

  it('does not open with another key', () => {
    expect(() => openTotpSecret(randomBytes(32), ADA, sealTotpSecret(KEY, ADA, SECRET))).toThrow(TotpSecretUnreadableError);
  });

  it("does not open in another user's row", () => {
    expect(() => openTotpSecret(KEY, BOB, sealTotpSecret(KEY, ADA, SECRET))).toThrow(TotpSecretUnreadableError);
  });

  it.each([
    ['the IV', 1],
    ['the ciphertext', 2],
    ['the tag', 3],
  ])('does not open once %s is altered', (_part, index) => {
    const tampered = withPart(sealTotpSecret(KEY, ADA, SECRET), index, flipFirstBit);
    expect(isSealedTotpSecret(tampered)).toBe(true);
    expect(() => openTotpSecret(KEY, ADA, tampered)).toThrow(TotpSecretUnreadableError);
  });

  it('refuses a truncated tag, another version and a plaintext secret', () => {
    const sealed = sealTotpSecret(KEY, ADA, SECRET);
    for (const stored of [withPart(sealed, 3, (tag) => tag.subarray(0, 8)), sealed.replace(/^v1:/, 'v2:'), SECRET, '']) {
      expect(isSealedTotpSecret(stored), stored).toBe(false);
      expect(() => openTotpSecret(KEY, ADA, stored), stored).toThrow(TotpSecretUnreadableError);
    }
  });
});

describe('TOTP_ENCRYPTION_KEY', () => {
  it('reads 32 bytes from hex, base64 or base64url', () => {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url'), ` ${bytes.toString('base64')}\n`])
      expect(parseTotpEncryptionKey(text), text).toEqual({ key: bytes });
  });

  it.each([
    ['too short', randomBytes(16).toString('hex')],
    ['too long', randomBytes(48).toString('base64')],
    ['not hex or base64', 'Zq7vP2xL9mWc4RtY8bNf3KdH6sJg1Ua5eT0iOp!@#$%^&*()'],
    ['a repeated character', '0'.repeat(64)],
    ['a repeated phrase', Buffer.from('change-me-'.repeat(4).slice(0, 32)).toString('base64')],
  ])('refuses %s', (_case, text) => {
    expect(parseTotpEncryptionKey(text)).toHaveProperty('problem');
  });
});
