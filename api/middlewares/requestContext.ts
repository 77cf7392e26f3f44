import { randomFillSync } from 'node:crypto';
import type Koa from 'koa';
import { ulid } from 'ulid';
import type { AppState } from '../context';
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

/** Gives every request an id (the caller's X-Request-Id when sane) and one access-log line. */
export function requestContext(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : `req_${ulid(undefined, pooledRandom)}`;
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
