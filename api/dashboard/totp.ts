// TOTP (RFC 6238) second factor with the otpauth package: 6 digits, 30 s, SHA-1, as authenticator apps expect.
import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Stablecoin checkout';

const totpFor = (secretBase32: string, email: string) =>
  new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secretBase32) });

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app scans. */
export const totpUri = (secretBase32: string, email: string): string => totpFor(secretBase32, email).toString();

/** One step of clock drift either way is accepted. */
export function totpCodeValid(secretBase32: string, email: string, code: string): boolean {
  return /^\d{6}$/.test(code) && totpFor(secretBase32, email).validate({ token: code, window: 1 }) !== null;
}
