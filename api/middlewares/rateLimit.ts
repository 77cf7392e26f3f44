import type Koa from 'koa';
import { countRequest, countSessionTokenRequest } from '../../db/repositories/rateLimits';
import { leaseSize } from '../../domain/security/requestLeases';
import type { AppContext, AppDeps, AppState } from '../context';
import { TooManyRequestsError } from '../errors';

/** The policy a request is answered by: its limit, the count so far, this request included, and the window's end. */
interface Window {
  scope: 'apiKey' | 'session' | 'merchant';
  limit: number;
  count: number;
  resetSeconds: number;
}

/**
 * A budget of requests in fixed one-minute windows: per API key (`RATE_LIMIT_PER_MINUTE`, the same for test
 * and live keys), or for session-token calls per checkout session (`RATE_LIMIT_PER_SESSION_PER_MINUTE`) and
 * per merchant across all its sessions (`RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE`). Runs right
 * after authentication (it needs the key or the session) and counts in Postgres, so several API replicas
 * share one budget. An API key's requests are numbered from leases of the shared count (deps.rateLimitLeases,
 * domain/security/requestLeases.ts): one upsert per lease rather than per request, never more than the limit served,
 * and at most (replicas − 1) × (lease − 1) refused short of it. Every answer carries the RateLimit-* headers
 * (IETF httpapi draft) of the policy with the least remaining; a refusal adds Retry-After, the seconds until
 * the window resets. A fixed window lets a client spend up to twice the limit across one window boundary;
 * that is the price of one counter row per key, session or merchant.
 */
export function rateLimit(deps: Pick<AppDeps, 'sql' | 'config' | 'rateLimitLeases'>, per: 'apiKey' | 'session'): Koa.Middleware<AppState> {
  const { rateLimitPerMinute, rateLimitPerSessionPerMinute, rateLimitSessionTokensPerMerchantPerMinute } = deps.config;
  const lease = leaseSize(rateLimitPerMinute);

  async function windowOf(ctx: AppContext): Promise<Window> {
    if (per === 'apiKey') {
      if (!ctx.state.auth) throw new Error('rateLimit(apiKey) must run after its authentication');
      const { keyId } = ctx.state.auth;
      const { count, resetSeconds } = await deps.rateLimitLeases.number(keyId, lease, Date.now, (size) =>
        countRequest(deps.sql, { apiKeyId: keyId }, size),
      );
      return { scope: 'apiKey', limit: rateLimitPerMinute, count, resetSeconds };
    }
    if (!ctx.state.session) throw new Error('rateLimit(session) must run after its authentication');
    const counts = await countSessionTokenRequest(deps.sql, ctx.state.session, rateLimitPerSessionPerMinute);
    const bySession: Window = {
      scope: 'session',
      limit: rateLimitPerSessionPerMinute,
      count: counts.session,
      resetSeconds: counts.resetSeconds,
    };
    if (counts.merchant === undefined) return bySession;
    const byMerchant: Window = {
      scope: 'merchant',
      limit: rateLimitSessionTokensPerMerchantPerMinute,
      count: counts.merchant,
      resetSeconds: counts.resetSeconds,
    };
    return byMerchant.limit - byMerchant.count < bySession.limit - bySession.count ? byMerchant : bySession;
  }

  return async (ctx, next) => {
    const { scope, limit, count, resetSeconds } = await windowOf(ctx);
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, limit - count)));
    ctx.set('RateLimit-Reset', String(resetSeconds));
    if (count > limit) {
      // Once per key, session or merchant and window: a client hammering past its limit must not flood the logs as well.
      if (count === limit + 1) ctx.state.log.warn({ limit, scope }, 'rate limit exceeded');
      throw new TooManyRequestsError('Rate limit exceeded', resetSeconds);
    }
    await next();
  };
}
