import type Koa from 'koa';
import type { Histogram } from 'prom-client';
import type { AppState } from '../context';

/**
 * Observes every request's duration under the route pattern the router matched (`/checkout/sessions/:session_id`),
 * never the raw URL, so ids and query strings cannot multiply the series. Sits outside the error handler, so
 * the status is the one the client got.
 */
export function httpMetrics(histogram: Histogram<'method' | 'route' | 'status'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const stop = histogram.startTimer();
    try {
      await next();
    } finally {
      // @koa/router records the pattern it dispatched to on the context.
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : 'unmatched';
      stop({ method: ctx.method, route, status: String(ctx.status) });
    }
  };
}
