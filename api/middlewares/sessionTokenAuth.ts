import { requireSessionTokenSecret } from '../../config/env';
import type Koa from 'koa';
import { findSessionById } from '../../db/repositories/sessions';
import { verifySessionToken } from '../../domain/security/sessionToken';
import type { AppContext, AppDeps, AppState } from '../context';
import { ForbiddenError, UnauthenticatedError } from '../errors';
import { authFailureBudget, tooManyFailures } from './authFailureBudget';
import { CHECKOUT_USER_TYPE, USER_TYPE_HEADER } from './apiKeyAuth';
import { rateLimit } from './rateLimit';

/** The session token from `Authorization: Bearer <token>`, else from `?token=` (docs/api.md#authentication). */
export function presentedSessionToken(ctx: AppContext): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  if (bearer?.[1]) return bearer[1];
  const query = ctx.query.token;
  return typeof query === 'string' && query.length > 0 ? query : undefined;
}

/**
 * Hosted-page calls (docs/api.md#authentication, docs/api.md#refusals): the token names its session and lives as long as the session does.
 * A forged token, one for a session that does not exist, and one past the session's expires_at all read
 * the same, so a caller learns nothing about sessions it holds no token for. A forged token is refused by
 * its HMAC before any lookup and spends the client address's budget of failed authentications
 * (./authFailureBudget.ts). Every authenticated request counts against the session's rate limit.
 */
export function sessionTokenAuth(
  deps: Pick<AppDeps, 'sql' | 'config' | 'now' | 'authFailures' | 'rateLimitLeases'>,
): Koa.Middleware<AppState> {
  const limited = rateLimit(deps, 'session');
  const failures = authFailureBudget(deps);
  return async (ctx, next) => {
    // What a token unlocks is one customer's checkout: no shared or browser cache may keep it.
    ctx.set('Cache-Control', 'no-store');
    const token = presentedSessionToken(ctx);
    if (!token) throw new UnauthenticatedError('Missing session token');
    const userType = ctx.get(USER_TYPE_HEADER);
    if (!userType) throw new UnauthenticatedError(`Missing ${USER_TYPE_HEADER} header`);
    if (userType !== CHECKOUT_USER_TYPE) throw new ForbiddenError(`${USER_TYPE_HEADER} must be ${CHECKOUT_USER_TYPE}`);

    const sessionId = verifySessionToken(token, requireSessionTokenSecret(deps.config));
    if (!sessionId) {
      const blockedFor = failures.blockedFor(ctx);
      if (blockedFor !== undefined) throw tooManyFailures(blockedFor);
      throw await failures.failed(ctx, new UnauthenticatedError('Invalid or expired session token'));
    }
    // A token with a valid signature is one this service issued, proved without a lookup: it is served from
    // a blocked address too, and one whose session expired is no guess and spends no budget (a page left open
    // keeps polling, and a mobile carrier puts many customers behind one address).
    const session = await findSessionById(deps.sql, sessionId);
    const now = deps.now?.() ?? new Date();
    if (!session || session.expiresAt.getTime() <= now.getTime()) throw new UnauthenticatedError('Invalid or expired session token');

    ctx.state.session = { sessionId: session.sessionId, merchantId: session.merchantId, mode: session.mode };
    ctx.state.bindLog({ sessionId: session.sessionId, merchantId: session.merchantId, mode: session.mode });
    await limited(ctx, next);
  };
}
