import type Koa from 'koa';
import { countRequest, type RateLimitSubject } from '../../db/repositories/rateLimits';
import type { AppDeps, AppState } from '../context';
import { TooManyRequestsError } from '../errors';

/**
 * A budget of requests in fixed one-minute windows: per API key (`RATE_LIMIT_PER_MINUTE`, the same for test
 * and live keys) or per checkout session for session-token calls (`RATE_LIMIT_PER_SESSION_PER_MINUTE`). Runs
 * right after authentication (it needs the key or the session) and counts in Postgres, so several API replicas
 * share one budget. Every answer carries the RateLimit-* headers (IETF httpapi draft); a refusal adds
 * Retry-After, the seconds until the window resets. A fixed window lets a client spend up to twice the limit
 * across one window boundary; that is the price of one upsert per request.
 */
export function rateLimit(deps: Pick<AppDeps, 'sql' | 'config'>, per: 'apiKey' | 'session'): Koa.Middleware<AppState> {
  const limit = per === 'apiKey' ? deps.config.rateLimitPerMinute : deps.config.rateLimitPerSessionPerMinute;
  return async (ctx, next) => {
    const subject: RateLimitSubject | undefined =
      per === 'apiKey'
        ? ctx.state.auth && { apiKeyId: ctx.state.auth.keyId }
        : ctx.state.session && { sessionId: ctx.state.session.sessionId };
    if (!subject) throw new Error(`rateLimit(${per}) must run after its authentication`);
    const { count, resetSeconds } = await countRequest(deps.sql, subject);
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, limit - count)));
    ctx.set('RateLimit-Reset', String(resetSeconds));
    if (count > limit) {
      // Once per key (or session) and window: a client hammering past its limit must not flood the logs as well.
      if (count === limit + 1) ctx.state.log.warn({ limit }, 'rate limit exceeded');
      throw new TooManyRequestsError('Rate limit exceeded', resetSeconds);
    }
    await next();
  };
}
