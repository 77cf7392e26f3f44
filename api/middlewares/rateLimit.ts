import type Koa from 'koa';
import { countRequest } from '../../db/repositories/rateLimits';
import type { AppDeps, AppState } from '../context';
import { TooManyRequestsError } from '../errors';

/**
 * Per-API-key budget of `RATE_LIMIT_PER_MINUTE` requests in fixed one-minute windows, the same for test
 * and live keys. Runs right after API-key authentication (it needs the key) and counts in Postgres, so
 * several API replicas share one budget. Every answer carries the RateLimit-* headers (IETF httpapi
 * draft); a refusal adds Retry-After, the seconds until the window resets. A fixed window lets a client
 * spend up to twice the limit across one window boundary; that is the price of one upsert per request.
 */
export function rateLimit(deps: Pick<AppDeps, 'sql' | 'config'>): Koa.Middleware<AppState> {
  const limit = deps.config.rateLimitPerMinute;
  return async (ctx, next) => {
    const keyId = ctx.state.auth?.keyId;
    if (!keyId) throw new Error('rateLimit must run after apiKeyAuth');
    const { count, resetSeconds } = await countRequest(deps.sql, keyId);
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, limit - count)));
    ctx.set('RateLimit-Reset', String(resetSeconds));
    if (count > limit) {
      // Once per key and window: a client hammering past its limit must not flood the logs as well.
      if (count === limit + 1) ctx.state.log.warn({ limit }, 'rate limit exceeded');
      throw new TooManyRequestsError('Rate limit exceeded', resetSeconds);
    }
    await next();
  };
}
