import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, AppState } from './context';
import { MethodNotAllowedError } from './errors';
import { errorHandler } from './middlewares/errorHandler';
import { jsonBody } from './middlewares/jsonBody';
import { requestContext } from './middlewares/requestContext';
import { registerSessionRoutes } from './routes/sessions/routes';
import { registerTransactionRoutes } from './routes/transactions/routes';

export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(errorHandler());
  app.use(jsonBody(deps.config.maxBodyBytes));

  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { data: { status: 'ok' } };
  });
  registerSessionRoutes(router, deps);
  registerTransactionRoutes(router, deps);

  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new MethodNotAllowedError('Method not allowed'),
      notImplemented: () => new MethodNotAllowedError('Method not allowed'),
    }),
  );
  return app;
}
