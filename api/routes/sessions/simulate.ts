// simulate (spec 4.8): forces a test session into any status through the workflow, so the read model and
// webhooks follow exactly as for a natural change. Never in production, never for live sessions.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Config } from '../../../config/env';
import { findSession } from '../../../db/repositories/sessions';
import { SessionIdParam } from '../../../domain/session';
import { SimulateRequest } from '../../../domain/simulate';
import { simulateUpdate } from '../../../workflows/messages';
import type { AppDeps, AppState, MerchantAuth } from '../../context';
import { ForbiddenError, sessionNotFound } from '../../errors';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { validated } from '../../middlewares/validated';
import { executeSessionUpdate } from '../../sessionUpdates';

/** Checked before the body is read: the answer in production does not depend on what was sent. */
function simulationAllowed(config: Pick<Config, 'appEnv'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    if (config.appEnv === 'production') throw new ForbiddenError('simulate is not available in production');
    if (ctx.state.auth?.mode !== 'test') {
      throw new ForbiddenError('simulate is not available with live keys: live sessions change status only through real payments');
    }
    await next();
  };
}

export function registerSimulateRoute(router: Router<AppState>, deps: AppDeps): void {
  router.post(
    '/checkout/sessions/:session_id/simulate',
    apiKeyAuth(deps),
    simulationAllowed(deps.config),
    validated({ params: SessionIdParam, body: SimulateRequest }, async (ctx, { params, body }) => {
      const session = await findSession(deps.sql, ctx.state.auth as MerchantAuth, params.session_id);
      if (!session) throw sessionNotFound();
      // Any refusal by the workflow is a business answer here: simulate exists to exercise those paths.
      const result = await executeSessionUpdate(deps, session, simulateUpdate, { status: body.status }, () => true);
      ctx.body = { data: { session_id: result.session_id, status: result.status } };
    }),
  );
}
