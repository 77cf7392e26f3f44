import type Koa from 'koa';
import type { AppDeps, AppState } from '../context';
import { UnauthenticatedError } from '../errors';
import { apiKeyAuth } from './apiKeyAuth';
import { presentedSessionToken, sessionTokenAuth } from './sessionTokenAuth';

/**
 * Endpoints both the merchant's server (API key) and the hosted page (session token) call. An API key,
 * when sent, decides; a request carrying neither credential is told about both.
 */
export function merchantOrSessionAuth(
  deps: Pick<AppDeps, 'sql' | 'config' | 'now' | 'authFailures' | 'apiKeys' | 'rateLimitLeases'>,
): Koa.Middleware<AppState> {
  const byKey = apiKeyAuth(deps);
  const byToken = sessionTokenAuth(deps);
  return async (ctx, next) => {
    if (ctx.get('x-api-key')) return byKey(ctx, next);
    if (presentedSessionToken(ctx)) return byToken(ctx, next);
    throw new UnauthenticatedError(
      'Missing credentials: send the x-api-key header, or the session token as Authorization: Bearer or ?token=',
    );
  };
}
