import type Koa from 'koa';
import { errorFields } from '../../observability/logger';
import type { AppState } from '../context';
import { ApiError } from '../errors';

export function errorHandler(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      // Nothing answered: an unknown path (the router has already turned known paths into 405s).
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.body = { error: 'Not found' };
        ctx.status = 404;
      }
    } catch (error) {
      if (error instanceof ApiError) {
        ctx.status = error.status;
        ctx.body = error.details ? { error: error.message, details: error.details } : { error: error.message };
        for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
        return;
      }
      ctx.state.log.error({ err: errorFields(error) }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Internal server error', request_id: ctx.state.requestId };
    }
  };
}
