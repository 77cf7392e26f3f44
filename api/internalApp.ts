// The API's internal listener (INTERNAL_HOST:INTERNAL_PORT): Prometheus metrics and the detailed readiness
// report, which name dependencies and carry business counts. It is never published: orchestrators and
// Prometheus reach it on the private network.
import Router from '@koa/router';
import Koa from 'koa';
import type { ApiMetrics } from '../observability/apiMetrics';
import type { ApiDeps, AppState } from './context';
import { errorHandler } from './middlewares/errorHandler';
import { requestContext } from './middlewares/requestContext';
import { registerHealthRoutes } from './routes/health/routes';
import { registerMetricsRoute } from './routes/metrics/routes';

export function createInternalApp(deps: ApiDeps, metrics: ApiMetrics): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(errorHandler());
  const router = new Router<AppState>();
  registerHealthRoutes(router, deps, { detailed: true });
  registerMetricsRoute(router, metrics);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
