import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, AppState } from './context';
import { createDashboardRouter } from './dashboard/router';
import { MethodNotAllowedError } from './errors';
import { createApiMetrics } from '../observability/apiMetrics';
import { errorHandler } from './middlewares/errorHandler';
import { httpMetrics } from './middlewares/httpMetrics';
import { jsonBody } from './middlewares/jsonBody';
import { requestContext } from './middlewares/requestContext';
import { registerDocsRoutes } from './openapi/routes';
import { registerBankRoutes } from './routes/bank/routes';
import { registerCurrentSessionRoute, registerHostedPageRoutes } from './routes/hostedPage/routes';
import { registerHealthRoutes } from './routes/health/routes';
import { registerMetricsRoute } from './routes/metrics/routes';
import { registerPaymentRoutes } from './routes/payments/routes';
import { registerQuoteRoutes } from './routes/quotes/routes';
import { registerListSessionsRoute } from './routes/sessions/listSessions';
import { registerSessionRoutes } from './routes/sessions/routes';
import { registerSimulateRoute } from './routes/sessions/simulate';
import { registerTokenRoutes } from './routes/tokens/routes';
import { registerTransactionRoutes } from './routes/transactions/routes';

export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true;
  // Behind a reverse proxy ctx.ip comes from X-Forwarded-For; only its last entry, the one our proxy
  // appended, is believed, so a client cannot pick its own address for the API keys' IP allowlists.
  app.proxy = deps.config.trustProxy;
  app.maxIpsCount = 1;
  const metrics = createApiMetrics(deps.sql);
  app.use(requestContext(deps.logger));
  app.use(httpMetrics(metrics.httpDuration));
  app.use(errorHandler());
  app.use(jsonBody(deps.config.maxBodyBytes));

  const router = new Router<AppState>();
  registerHealthRoutes(router, deps);
  registerMetricsRoute(router, metrics);
  registerDocsRoutes(router, deps);
  registerTokenRoutes(router, deps);
  registerQuoteRoutes(router, deps);
  // Literal paths under /checkout/sessions/ first: /checkout/sessions/:session_id would match them too.
  registerPaymentRoutes(router, deps);
  registerBankRoutes(router, deps);
  registerCurrentSessionRoute(router, deps);
  registerSessionRoutes(router, deps);
  registerListSessionsRoute(router, deps);
  registerSimulateRoute(router, deps);
  registerTransactionRoutes(router, deps);
  // Last: its /checkout/:session_id would also match the one-segment paths above.
  registerHostedPageRoutes(router, deps);

  app.use(router.routes());
  app.use(createDashboardRouter(deps).routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new MethodNotAllowedError('Method not allowed'),
      notImplemented: () => new MethodNotAllowedError('Method not allowed'),
    }),
  );
  return app;
}
