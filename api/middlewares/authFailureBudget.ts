import { countRequest } from '../../db/repositories/rateLimits';
import type { AppContext, AppDeps } from '../context';
import { TooManyRequestsError, type ApiError } from '../errors';

export interface AuthFailureBudget {
  /** Seconds until the client's address may try again, or undefined when this replica has not blocked it; no database work. */
  blockedFor(ctx: AppContext): number | undefined;
  /** Whether this replica has seen the key (by its hash) authenticate lately; no database work. */
  isProven(keyHash: Buffer): boolean;
  prove(keyHash: Buffer): void;
  /** Counts one failed authentication of the client's address: the error to answer, `refusal` or, once over budget, 429. */
  failed(ctx: AppContext, refusal: ApiError): Promise<ApiError>;
}

export const tooManyFailures = (retryAfterSeconds: number) =>
  new TooManyRequestsError('Too many failed authentications from this address', retryAfterSeconds);

/**
 * A budget of failed authentications per client address (`AUTH_FAILURES_PER_IP_PER_MINUTE`, ctx.ip as
 * TRUST_PROXY resolves it), so no address can try keys or tokens without end. Only failures are counted,
 * in Postgres so every replica shares the count: a successful request pays nothing for it. A replica that
 * sees the count pass the budget remembers the address until the window ends (deps.authFailures) and from
 * then on answers its failures 429 before any lookup; the other replicas each learn it on their next failure.
 */
export function authFailureBudget(deps: Pick<AppDeps, 'sql' | 'config' | 'now' | 'authFailures'>): AuthFailureBudget {
  const limit = deps.config.authFailuresPerIpPerMinute;
  const nowMs = () => (deps.now?.() ?? new Date()).getTime();
  return {
    blockedFor: (ctx) => deps.authFailures.blockedForSeconds(ctx.ip, nowMs()),
    isProven: (keyHash) => deps.authFailures.isProven(keyHash.toString('hex'), nowMs()),
    prove: (keyHash) => deps.authFailures.prove(keyHash.toString('hex'), nowMs()),
    async failed(ctx, refusal) {
      const { count, resetSeconds } = await countRequest(deps.sql, { authFailureIp: ctx.ip });
      if (count <= limit) return refusal;
      deps.authFailures.block(ctx.ip, nowMs() + resetSeconds * 1000);
      // Once per address and window across all replicas (only one sees limit + 1); never the credential.
      if (count === limit + 1) ctx.state.log.warn({ ip: ctx.ip, limit }, 'failed-authentication budget of a client address exceeded');
      return tooManyFailures(resetSeconds);
    },
  };
}
