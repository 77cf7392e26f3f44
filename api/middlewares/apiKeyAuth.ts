import type Koa from 'koa';
import type { Sql } from '../../db/client';
import { findApiKeyByHash } from '../../db/repositories/apiKeys';
import { apiKeyMode, hashApiKey, sameHash } from '../../domain/apiKeys';
import type { AppState } from '../context';
import { ForbiddenError, UnauthenticatedError } from '../errors';

export const USER_TYPE_HEADER = 'x-service-user-type';
export const CHECKOUT_USER_TYPE = 'checkout';

/**
 * Merchant API calls (spec 5.1): a missing header is 401, anything else wrong with them is 403.
 * Every refusal of a present key reads the same, so a caller cannot tell revoked from unknown.
 */
export function apiKeyAuth(sql: Sql): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const rawKey = ctx.get('x-api-key');
    if (!rawKey) throw new UnauthenticatedError('Missing API key: send it in the x-api-key header');
    const userType = ctx.get(USER_TYPE_HEADER);
    if (!userType) throw new UnauthenticatedError(`Missing ${USER_TYPE_HEADER} header`);
    if (userType !== CHECKOUT_USER_TYPE) throw new ForbiddenError(`${USER_TYPE_HEADER} must be ${CHECKOUT_USER_TYPE}`);

    const mode = apiKeyMode(rawKey);
    const hash = hashApiKey(rawKey);
    const key = mode ? await findApiKeyByHash(sql, hash) : undefined;
    if (!key || key.revokedAt || key.mode !== mode || !sameHash(key.keyHash, hash)) throw new ForbiddenError('Invalid API key');

    ctx.state.auth = { merchantId: key.merchantId, mode: key.mode, keyId: key.id };
    ctx.state.log = ctx.state.log.child({ merchantId: key.merchantId, mode: key.mode, keyId: key.id });
    await next();
  };
}
