import type Koa from 'koa';
import type { AppState } from '../context';
import { pooledUlid } from '../pooledUlid';
import { RequestState } from '../requestState';
import type { Logger } from '../../observability/logger';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when sane), its state (../requestState.ts) and one
 * access-log line at info: below that level the request makes no logger of its own unless it logs something.
 */
export function requestContext(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : `req_${pooledUlid()}`;
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
