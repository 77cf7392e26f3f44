import { describe, expect, it } from 'vitest';
import {
  ABSOLUTE_LIFETIME_MS,
  csrfTokenMatches,
  hashToken,
  IDLE_TIMEOUT_MS,
  newOpaqueToken,
  sessionExpired,
} from '../../../domain/security/dashboardSession';
import { afterFailedSignIn, isLocked, LOCKOUT_MS, MAX_FAILED_SIGN_INS, normalizeEmail } from '../../../domain/security/signInPolicy';

const now = new Date('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('sign-in policy', () => {
  it('locks the account on the last allowed failure and starts counting afresh', () => {
    let state = { failedSignIns: 0, lockedUntil: null as Date | null };
    for (let i = 1; i < MAX_FAILED_SIGN_INS; i++) {
      state = afterFailedSignIn(state.failedSignIns, now);
      expect(state).toEqual({ failedSignIns: i, lockedUntil: null });
    }
    expect(afterFailedSignIn(state.failedSignIns, now)).toEqual({ failedSignIns: 0, lockedUntil: new Date(now.getTime() + LOCKOUT_MS) });
  });

  it('is locked until the lock ends, not after', () => {
    expect(isLocked({ lockedUntil: new Date(now.getTime() + 1) }, now)).toBe(true);
    expect(isLocked({ lockedUntil: now }, now)).toBe(false);
    expect(isLocked({ lockedUntil: null }, now)).toBe(false);
  });

  it('compares email addresses without case or surrounding space', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});

describe('dashboard sessions', () => {
  it('expire after the idle limit and after the absolute limit, whichever comes first', () => {
    expect(sessionExpired({ createdAt: ago(60_000), lastSeenAt: ago(IDLE_TIMEOUT_MS) }, now)).toBe(false);
    expect(sessionExpired({ createdAt: ago(60_000), lastSeenAt: ago(IDLE_TIMEOUT_MS + 1) }, now)).toBe(true);
    expect(sessionExpired({ createdAt: ago(ABSOLUTE_LIFETIME_MS + 1), lastSeenAt: now }, now)).toBe(true);
  });

  it('hash tokens, never store them, and compare CSRF tokens exactly', () => {
    const token = newOpaqueToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashToken(token)).toHaveLength(32);
    expect(csrfTokenMatches(token, token)).toBe(true);
    expect(csrfTokenMatches(token, `${token}x`)).toBe(false);
    expect(csrfTokenMatches(token, undefined)).toBe(false);
  });
});
