import type Koa from 'koa';
import { apiKeyMode, hashApiKey, sameHash } from '../../domain/security/apiKeys';
import { ipAllowed } from '../../domain/security/ipAllowlist';
import type { AppDeps, AppState } from '../context';
import { ForbiddenError, UnauthenticatedError } from '../errors';
import { authFailureBudget, tooManyFailures } from './authFailureBudget';
import { rateLimit } from './rateLimit';

export const USER_TYPE_HEADER = 'x-service-user-type';
export const CHECKOUT_USER_TYPE = 'checkout';

/**
 * Merchant API calls (docs/api.md#authentication): a missing header is 401, anything else wrong with them is 403.
 * Every refusal of a present key reads the same, so a caller cannot tell revoked from unknown. A key
 * with an IP allowlist is refused from any other address. Every refusal of a present key spends the client
 * address's budget of failed authentications (./authFailureBudget.ts). Every authenticated request then
 * counts against the key's rate limit, so no route using this middleware can forget it. Keys are looked up
 * through the app's cache (../apiKeyCache.ts), which every write to the key row invalidates on every replica.
 */
export function apiKeyAuth(
  deps: Pick<AppDeps, 'sql' | 'config' | 'now' | 'authFailures' | 'apiKeys' | 'rateLimitLeases'>,
): Koa.Middleware<AppState> {
  const limited = rateLimit(deps, 'apiKey');
  const failures = authFailureBudget(deps);
  return async (ctx, next) => {
    // Whatever a credential unlocks is the merchant's: no shared or browser cache may keep it.
    ctx.set('Cache-Control', 'no-store');
    const rawKey = ctx.get('x-api-key');
    if (!rawKey) throw new UnauthenticatedError('Missing API key: send it in the x-api-key header');
    const userType = ctx.get(USER_TYPE_HEADER);
    if (!userType) throw new UnauthenticatedError(`Missing ${USER_TYPE_HEADER} header`);
    if (userType !== CHECKOUT_USER_TYPE) throw new ForbiddenError(`${USER_TYPE_HEADER} must be ${CHECKOUT_USER_TYPE}`);

    const hash = hashApiKey(rawKey);
    const blockedFor = failures.blockedFor(ctx);
    // A blocked address's keys are not looked up: that is what ends enumeration and the load it makes. A key
    // this replica saw authenticate is still served, checked in full as usual: a valid key is unguessable
    // (192 random bits), so serving it teaches an enumerating client nothing, while a merchant's server that
    // shares its address (NAT, an egress proxy) with a client spending the budget keeps working. A key it
    // has not seen waits for the window to end, since telling it apart would take the very lookup refused.
    if (blockedFor !== undefined && !failures.isProven(hash)) throw tooManyFailures(blockedFor);

    const mode = apiKeyMode(rawKey);
    const key = mode ? await deps.apiKeys.find(hash) : undefined;
    if (!key || key.revokedAt || key.mode !== mode || !sameHash(key.keyHash, hash))
      throw await failures.failed(ctx, new ForbiddenError('Invalid API key'));
    if (key.allowedIps && !ipAllowed(key.allowedIps, ctx.ip)) {
      ctx.state.log.warn({ keyId: key.id, ip: ctx.ip }, 'API key used from an address outside its allowlist');
      // The same answer as for an unknown key, 429 included: an attacker holding a stolen key learns nothing from the refusal.
      throw await failures.failed(ctx, new ForbiddenError('Invalid API key'));
    }
    failures.prove(hash);

    ctx.state.auth = { merchantId: key.merchantId, mode: key.mode, keyId: key.id };
    ctx.state.bindLog({ merchantId: key.merchantId, mode: key.mode, keyId: key.id });
    await limited(ctx, next);
  };
}
