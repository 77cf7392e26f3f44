// Sign-in: per-address throttling, per-account lockout, Argon2id password check, then the TOTP code when
// the user has enrolled one. Every refusal of a credential reads the same, so it does not tell which part
// was wrong or whether the address has an account.
import { requireTotpEncryptionKey } from '../../config/env';
import { countRequest } from '../../db/repositories/rateLimits';
import { recordAudit } from '../../db/repositories/auditEvents';
import { insertDashboardSession } from '../../db/repositories/dashboardSessions';
import { findUserByEmail, recordSignInFailure, recordSignInSuccess, type MerchantUser } from '../../db/repositories/merchantUsers';
import { hashToken, newOpaqueToken } from '../../domain/security/dashboardSession';
import { afterFailedSignIn, isLocked, normalizeEmail, SIGN_IN_ATTEMPTS_PER_MINUTE } from '../../domain/security/signInPolicy';
import type { AppDeps } from '../context';
import { TooManyRequestsError, UnauthenticatedError } from '../errors';
import { passwordMatches } from './passwords';
import { totpCodeValid } from './totp';

export type SignInOutcome = { kind: 'signed-in'; user: MerchantUser; sessionToken: string } | { kind: 'totp-required' };

const refused = () => new UnauthenticatedError('Wrong email, password or authenticator code');

export async function signIn(
  deps: Pick<AppDeps, 'sql' | 'now' | 'config'>,
  input: { email: string; password: string; totp_code?: string | undefined },
  ip: string,
): Promise<SignInOutcome> {
  const { sql } = deps;
  const window = await countRequest(sql, { signInIp: ip });
  if (window.count > SIGN_IN_ATTEMPTS_PER_MINUTE)
    throw new TooManyRequestsError('Too many sign-in attempts; wait a minute', window.resetSeconds);

  const now = deps.now?.() ?? new Date();
  const user = await findUserByEmail(sql, normalizeEmail(input.email));
  if (user && isLocked(user, now))
    throw new TooManyRequestsError(
      'Account locked after repeated failed sign-ins; try again later',
      Math.ceil((user.lockedUntil!.getTime() - now.getTime()) / 1000),
    );
  const passwordOk = await passwordMatches(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) {
    if (user) await failed(deps, user, now);
    throw refused();
  }
  if (user.totpEnabled) {
    if (input.totp_code === undefined) return { kind: 'totp-required' };
    if (!totpCodeValid(requireTotpEncryptionKey(deps.config), user, input.totp_code)) {
      await failed(deps, user, now);
      throw refused();
    }
  }
  await recordSignInSuccess(sql, user.id);
  const sessionToken = newOpaqueToken();
  await insertDashboardSession(sql, hashToken(sessionToken), user.id, newOpaqueToken());
  await recordAudit(sql, {
    actor: { kind: 'user', id: user.id },
    merchantId: user.merchantId,
    mode: null,
    action: 'user.sign_in',
    changes: { ip },
  });
  return { kind: 'signed-in', user, sessionToken };
}

async function failed(deps: Pick<AppDeps, 'sql'>, user: MerchantUser, now: Date): Promise<void> {
  const state = afterFailedSignIn(user.failedSignIns, now);
  await recordSignInFailure(deps.sql, user.id, state);
  if (state.lockedUntil) {
    await recordAudit(deps.sql, {
      actor: { kind: 'user', id: user.id },
      merchantId: user.merchantId,
      mode: null,
      action: 'user.locked',
      changes: { locked_until: state.lockedUntil.toISOString() },
    });
  }
}
