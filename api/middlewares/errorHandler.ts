import type Koa from 'koa';
import { errorFields } from '../../observability/logger';
import type { AppState } from '../context';
import { ApiError } from '../errors';

/** The error body (docs/api.md#refusals) for a deliberate refusal; also what an Idempotency-Key replays. */
export function apiErrorBody(error: ApiError): { error: string; details?: { validation_errors: string[] } } {
  return error.details ? { error: error.message, details: error.details } : { error: error.message };
}

const ROUTER_ANSWERS: Record<number, string> = { 404: 'Not found', 405: 'Method not allowed', 501: 'Not implemented' };

export function errorHandler(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      // The router's own answers come without a body: an unknown path, a method the path does not take
      // (405, with the Allow header RFC 9110 requires) or a method the API knows nowhere (501).
      if (ctx.body === undefined && ROUTER_ANSWERS[ctx.status]) {
        const status = ctx.status;
        ctx.body = { error: ROUTER_ANSWERS[status] };
        ctx.status = status;
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
