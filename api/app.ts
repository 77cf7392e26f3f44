import Router from '@koa/router';
import Koa from 'koa';
import { smtpMailer } from '../activities/email/smtpMailer';
import { AuthFailureMemory } from '../domain/security/authFailureMemory';
import { RequestLeases } from '../domain/security/requestLeases';
import { createApiKeyCache, type ApiKeyCache } from './apiKeyCache';
import { createInventoryCapGate } from './inventoryCapGate';
import type { ApiDeps, AppDeps, AppState } from './context';
import { createDashboardRouter } from './dashboard/router';
import { createApiMetrics, type ApiMetrics } from '../observability/apiMetrics';
import { clientAddress } from './middlewares/clientAddress';
import { errorHandler } from './middlewares/errorHandler';
import { httpMetrics } from './middlewares/httpMetrics';
import { jsonBody } from './middlewares/jsonBody';
import { requestContext } from './middlewares/requestContext';
import { registerDocsRoutes } from './openapi/routes';
import { loadHostedPageAssets, registerHostedPageRoutes, unknownCheckoutPage } from './routes/hostedPage/routes';
import { registerHealthRoutes } from './routes/health/routes';
import { registerQuoteRoutes } from './routes/quotes/routes';
import { registerRefundRoutes } from './routes/refunds/routes';
import { loadRefundClaimPageAssets } from './routes/refundClaims/claimPage';
import { registerRefundClaimRoutes } from './routes/refundClaims/routes';
import { constrainSessionIdParams } from './routes/sessionIdParam';
import { registerListSessionsRoute } from './routes/sessions/listSessions';
import { registerSessionRoutes } from './routes/sessions/routes';
import { unknownSessionPath } from './routes/sessions/unknownSessionPath';
import { registerTokenRoutes } from './routes/tokens/routes';
import { registerTransactionRoutes } from './routes/transactions/routes';

/**
 * The public app. `metrics` is shared with the internal listener, which serves it. `apiKeys` keeps nothing
 * until it listens for key changes, which api/server.ts starts before it accepts a connection.
 */
export function createApp(
  apiDeps: ApiDeps,
  metrics: ApiMetrics = createApiMetrics(apiDeps.sql, apiDeps.config.inventory.caps),
  apiKeys: ApiKeyCache = createApiKeyCache(apiDeps.sql),
): Koa<AppState> {
  const deps: AppDeps = {
    ...apiDeps,
    authFailures: new AuthFailureMemory(),
    apiKeys,
    rateLimitLeases: new RequestLeases(),
    mailer: apiDeps.config.email && smtpMailer(apiDeps.config.email),
    inventoryCaps: createInventoryCapGate(apiDeps.config, apiDeps.sql, apiDeps.logger),
  };
  const app = new Koa<AppState>();
  app.silent = true;
  const pageAssets = loadHostedPageAssets(deps);
  const claimPageAssets = loadRefundClaimPageAssets(deps);
  app.use(clientAddress(deps.config.trustedProxies));
  app.use(requestContext(deps.logger));
  app.use(httpMetrics(metrics.httpDuration));
  app.use(errorHandler());
  app.use(jsonBody(deps.config.maxBodyBytes));

  const router = new Router<AppState>();
  registerHealthRoutes(router, deps, { detailed: false });
  registerDocsRoutes(router, deps);
  registerTokenRoutes(router, deps);
  registerQuoteRoutes(router, deps);
  registerSessionRoutes(router, deps);
  registerListSessionsRoute(router, deps);
  registerTransactionRoutes(router, deps);
  registerRefundRoutes(router, deps);
  registerHostedPageRoutes(router, pageAssets);
  registerRefundClaimRoutes(router, deps, claimPageAssets);
  constrainSessionIdParams(router);

  // Paths no route took because their session id is no session id; after the router, so order never matters.
  app.use(unknownCheckoutPage(pageAssets));
  app.use(unknownSessionPath(deps));
  app.use(router.routes());
  app.use(createDashboardRouter(deps).routes());
  // Not thrown: answered by the router itself, a 405 carries the Allow header RFC 9110 requires (errorHandler adds the body).
  app.use(router.allowedMethods());
  return app;
}
