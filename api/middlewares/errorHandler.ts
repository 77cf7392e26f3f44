import type Koa from 'koa';
import { errorFields } from '../../observability/logger';
import type { AppState } from '../context';
import { ApiError } from '../errors';

/** The contract's error body (spec 7) for a deliberate refusal; also what an Idempotency-Key replays. */
export function apiErrorBody(error: ApiError): { error: string; details?: { validation_errors: string[] } } {
  return error.details ? { error: error.message, details: error.details } : { error: error.message };
}

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
        ctx.body = apiErrorBody(error);
        for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
        return;
      }
      ctx.state.log.error({ err: errorFields(error) }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Internal server error', request_id: ctx.state.requestId };
    }
  };
}
