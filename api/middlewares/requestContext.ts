import { randomFillSync } from 'node:crypto';
import type Koa from 'koa';
import { ulid } from 'ulid';
import type { AppState } from '../context';
import { RequestState } from '../requestState';
import type { Logger } from '../../observability/logger';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

// ulid's own randomness makes a crypto call per character, 16 per id: 7 % of the API's CPU time under a
// get-session load (issue 16). One call fills the pool for 256 request ids.
const pool = new Uint8Array(4096);
let pooled = pool.length;
function pooledRandom(): number {
  if (pooled === pool.length) {
    randomFillSync(pool);
    pooled = 0;
  }
  return pool[pooled++]! / 256;
}

/**
 * Gives every request an id (the caller's X-Request-Id when sane), its state (../requestState.ts) and one
 * access-log line at info: below that level the request makes no logger of its own unless it logs something.
 */
export function requestContext(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : `req_${ulid(undefined, pooledRandom)}`;
    const state = new RequestState(logger, requestId);
    ctx.state = state;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
      }
    }
  };
}
