// The merchant dashboard under /dashboard: its JSON API (cookie session, CSRF-checked) and its pages.
import Router from '@koa/router';
import type { AppDeps } from '../context';
import type { DashboardState } from './context';
import { dashboardSession } from './middlewares/dashboardSession';
import { registerDashboardPage } from './page';
import { registerAuthRoutes } from './routes/auth';
import { registerDeveloperRoutes } from './routes/developers';
import { registerRefundRoutes } from './routes/refunds';
import { registerSessionPages } from './routes/sessions';
import { registerSettingsRoutes } from './routes/settings';
import { registerStatementRoutes } from './routes/statements';
import { registerUserRoutes } from './routes/users';

export function createDashboardRouter(deps: AppDeps): Router<DashboardState> {
  const router = new Router<DashboardState>({ prefix: '/dashboard' });
  router.use(dashboardSession(deps));
  registerAuthRoutes(router, deps);
  registerUserRoutes(router, deps);
  registerDeveloperRoutes(router, deps);
  registerSessionPages(router, deps);
  registerRefundRoutes(router, deps);
  registerStatementRoutes(router, deps);
  registerSettingsRoutes(router, deps);
  registerDashboardPage(router, deps);
  return router;
}
