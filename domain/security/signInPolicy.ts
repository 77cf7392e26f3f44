// Who may try to sign in, and what a failure costs. An account locks for LOCKOUT_MS after
// MAX_FAILED_SIGN_INS wrong passwords or codes in a row; a correct sign-in resets the count. Each client
// address is further throttled to SIGN_IN_ATTEMPTS_PER_MINUTE attempts, so guessing across many accounts
// is slow too.
export const MAX_FAILED_SIGN_INS = 5;
export const LOCKOUT_MS = 15 * 60_000;
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 20;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function isLocked(user: { lockedUntil: Date | null }, now: Date): boolean {
  return user.lockedUntil !== null && user.lockedUntil.getTime() > now.getTime();
}

/** The account's state after one more failed attempt. */
export function afterFailedSignIn(failedSignIns: number, now: Date): { failedSignIns: number; lockedUntil: Date | null } {
  const failed = failedSignIns + 1;
  return failed >= MAX_FAILED_SIGN_INS
    ? { failedSignIns: 0, lockedUntil: new Date(now.getTime() + LOCKOUT_MS) }
    : { failedSignIns: failed, lockedUntil: null };
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
