import type Koa from 'koa';
import { findApiKeyByHash } from '../../db/repositories/apiKeys';
import { apiKeyMode, hashApiKey, sameHash } from '../../domain/apiKeys';
import { ipAllowed } from '../../domain/ipAllowlist';
import type { AppDeps, AppState } from '../context';
import { ForbiddenError, UnauthenticatedError } from '../errors';
import { rateLimit } from './rateLimit';

export const USER_TYPE_HEADER = 'x-service-user-type';
export const CHECKOUT_USER_TYPE = 'checkout';

/**
 * Merchant API calls (spec 5.1): a missing header is 401, anything else wrong with them is 403.
 * Every refusal of a present key reads the same, so a caller cannot tell revoked from unknown. A key
 * with an IP allowlist is refused from any other address. Every authenticated request then counts
 * against the key's rate limit, so no route using this middleware can forget it.
 */
export function apiKeyAuth(deps: Pick<AppDeps, 'sql' | 'config'>): Koa.Middleware<AppState> {
  const { sql } = deps;
  const limited = rateLimit(deps, 'apiKey');
  return async (ctx, next) => {
    // Whatever a credential unlocks is the merchant's: no shared or browser cache may keep it.
    ctx.set('Cache-Control', 'no-store');
    const rawKey = ctx.get('x-api-key');
    if (!rawKey) throw new UnauthenticatedError('Missing API key: send it in the x-api-key header');
    const userType = ctx.get(USER_TYPE_HEADER);
    if (!userType) throw new UnauthenticatedError(`Missing ${USER_TYPE_HEADER} header`);
    if (userType !== CHECKOUT_USER_TYPE) throw new ForbiddenError(`${USER_TYPE_HEADER} must be ${CHECKOUT_USER_TYPE}`);

    const mode = apiKeyMode(rawKey);
    const hash = hashApiKey(rawKey);
    const key = mode ? await findApiKeyByHash(sql, hash) : undefined;
    if (!key || key.revokedAt || key.mode !== mode || !sameHash(key.keyHash, hash)) throw new ForbiddenError('Invalid API key');
    if (key.allowedIps && !ipAllowed(key.allowedIps, ctx.ip)) {
      ctx.state.log.warn({ keyId: key.id, ip: ctx.ip }, 'API key used from an address outside its allowlist');
      // The same answer as for an unknown key: an attacker holding a stolen key learns nothing from the refusal.
      throw new ForbiddenError('Invalid API key');
    }

    ctx.state.auth = { merchantId: key.merchantId, mode: key.mode, keyId: key.id };
    ctx.state.log = ctx.state.log.child({ merchantId: key.merchantId, mode: key.mode, keyId: key.id });
    await limited(ctx, next);
  };
}
