import { createHash, randomUUID } from 'node:crypto';
import type Koa from 'koa';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  IDEMPOTENCY_KEY_TTL_SECONDS,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  type IdempotencyScope,
  type IdempotencyTimings,
} from '../../db/repositories/idempotencyKeys';
import { canonicalJson } from '../../domain/wire/canonicalJson';
import { errorFields } from '../../observability/logger';
import { merchantAuth, type AppContext, type AppDeps, type AppState } from '../context';
import { ApiError, BadRequestError, ConflictError } from '../errors';
import { apiErrorBody } from './errorHandler';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

const TIMINGS: IdempotencyTimings = {
  ttlSeconds: IDEMPOTENCY_KEY_TTL_SECONDS,
  // Far above any request's duration; only a request whose process died holds a key this long.
  lockTimeoutSeconds: 5 * 60,
};
const PURGE_BATCH = 100;
const CLAIM_ATTEMPTS = 3;
// Printable ASCII without spaces: UUIDs, ULIDs and the like, never something a log line could garble.
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Auth refusals and rate limiting are about the caller, not the request: a retry must run again. */
const storable = (status: number) =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![401, 403, 429].includes(status));

/**
 * Stripe-style `Idempotency-Key` for POST endpoints; runs after apiKeyAuth, as keys belong to the API
 * key's merchant and mode. The first request's status and body are stored and replayed, with
 * `Idempotent-Replayed: true`, to any repeat with the same method, path and body for 24 hours. A repeat
 * with a different request, or one arriving while the first still runs, is refused with 409 (Conflict
 * like every other idempotency clash of this API; Stripe answers 400). 5xx results, auth refusals and
 * rate limiting are not stored, so the client's retry runs the request again. `required` refuses a request without a
 * key (400), for an endpoint with no natural key of its own to make a retry safe (create refund).
 */
export function idempotencyKey(deps: Pick<AppDeps, 'sql'>, options: { required?: boolean } = {}): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
    if (!key && options.required) {
      throw new BadRequestError(`${IDEMPOTENCY_KEY_HEADER} is required: send a unique key, and the same key again to retry the request`);
    }
    if (!key) return next();
    if (!KEY_PATTERN.test(key))
      throw new BadRequestError(`${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters without spaces`);
    const auth = merchantAuth(ctx);

    const scope: IdempotencyScope = { merchantId: auth.merchantId, mode: auth.mode, key };
    const requestHash = hashRequest(ctx);
    const lockToken = randomUUID();
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      if (await claimIdempotencyKey(deps.sql, scope, requestHash, lockToken, TIMINGS)) {
        return runAndRecord(deps, ctx, next, scope, lockToken);
      }
      const stored = await findIdempotencyKey(deps.sql, scope, TIMINGS.ttlSeconds);
      // Released (the first request failed with a 5xx) or expired between the two statements: claim again.
      if (!stored) continue;
      if (!stored.requestHash.equals(requestHash)) {
        throw new ConflictError(
          `${IDEMPOTENCY_KEY_HEADER} ${key} was already used with a different request; use a new key for a new request`,
        );
      }
      if (stored.state === 'in_progress') break;
      ctx.status = stored.status;
      ctx.body = stored.body;
      ctx.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return;
    }
    throw new ConflictError(`A request with ${IDEMPOTENCY_KEY_HEADER} ${key} is still in progress; retry once it has completed`);
  };
}

function hashRequest(ctx: AppContext): Buffer {
  const body = (ctx.request as { body?: unknown }).body;
  return createHash('sha256')
    .update(`${ctx.method} ${ctx.path}?${ctx.querystring}\n${canonicalJson(body)}`, 'utf8')
    .digest();
}

async function runAndRecord(
  deps: Pick<AppDeps, 'sql'>,
  ctx: AppContext,
  next: Koa.Next,
  scope: IdempotencyScope,
  lockToken: string,
): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (error instanceof ApiError && storable(error.status)) await record(deps, ctx, scope, lockToken, error.status, apiErrorBody(error));
    else await release(deps, ctx, scope, lockToken);
    throw error;
  }
  if (storable(ctx.status) && ctx.body !== undefined) await record(deps, ctx, scope, lockToken, ctx.status, ctx.body);
  else await release(deps, ctx, scope, lockToken);
}

// A failure to store must not turn an answered request into an error: the key stays held until the
// lock timeout, after which a retry runs again (and the endpoint's own idempotency, such as create
// session's transaction_id, still holds).
async function record(
  deps: Pick<AppDeps, 'sql'>,
  ctx: AppContext,
  scope: IdempotencyScope,
  lockToken: string,
  status: number,
  body: unknown,
): Promise<void> {
  try {
    await completeIdempotencyKey(deps.sql, scope, lockToken, status, body);
    await purgeExpiredIdempotencyKeys(deps.sql, TIMINGS.ttlSeconds, PURGE_BATCH);
  } catch (error) {
    ctx.state.log.error({ err: errorFields(error) }, 'could not store the Idempotency-Key result');
  }
}

async function release(deps: Pick<AppDeps, 'sql'>, ctx: AppContext, scope: IdempotencyScope, lockToken: string): Promise<void> {
  try {
    await releaseIdempotencyKey(deps.sql, scope, lockToken);
  } catch (error) {
    ctx.state.log.error({ err: errorFields(error) }, 'could not release the Idempotency-Key');
  }
}
