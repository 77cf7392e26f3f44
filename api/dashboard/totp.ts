// TOTP (RFC 6238) second factor with the otpauth package: 6 digits, 30 s, SHA-1, as authenticator apps expect.
// The secret is stored sealed under TOTP_ENCRYPTION_KEY (domain/security/totpSecretSealing.ts) and opened only
// here, to check a code.
import { Secret, TOTP } from 'otpauth';
import type { MerchantUser } from '../../db/repositories/merchantUsers';
import { openTotpSecret, sealTotpSecret, type SealedTotpSecret } from '../../domain/security/totpSecretSealing';

const ISSUER = 'Stablecoin checkout';

const totpFor = (secretBase32: string, email: string) =>
  new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secretBase32) });

/** A new secret, in base32 for the user's app, and sealed for the user's row. */
export function newTotpSecret(key: Buffer, userId: string): { secret: string; sealed: SealedTotpSecret } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, sealed: sealTotpSecret(key, userId, secret) };
}

/** The otpauth:// URI an authenticator app scans. */
export const totpUri = (secretBase32: string, email: string): string => totpFor(secretBase32, email).toString();

/** One step of clock drift either way is accepted; a user without a secret has no valid code. */
export function totpCodeValid(key: Buffer, user: Pick<MerchantUser, 'id' | 'email' | 'totpSecret'>, code: string): boolean {
  if (!user.totpSecret || !/^\d{6}$/.test(code)) return false;
  return totpFor(openTotpSecret(key, user.id, user.totpSecret), user.email).validate({ token: code, window: 1 }) !== null;
}
