import type Router from '@koa/router';
import { findSession } from '../../../db/repositories/sessions';
import { CreateSessionRequest, SessionIdParam } from '../../../domain/session';
import type { AppDeps, AppState, MerchantAuth } from '../../context';
import { sessionNotFound } from '../../errors';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { idempotencyKey } from '../../middlewares/idempotencyKey';
import { validated } from '../../middlewares/validated';
import { createSession } from './createSession';
import { presentCreatedSession, presentSession } from './present';

export function registerSessionRoutes(router: Router<AppState>, deps: AppDeps): void {
  const auth = apiKeyAuth(deps);

  router.post(
    '/checkout/sessions',
    auth,
    idempotencyKey(deps),
    validated({ body: CreateSessionRequest }, async (ctx, { body }) => {
      const { session, replayed } = await createSession(deps, ctx.state.auth as MerchantAuth, body);
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      ctx.status = replayed ? 200 : 201;
      ctx.body = { data: presentCreatedSession(session, deps.config) };
    }),
  );

  router.get(
    '/checkout/sessions/:session_id',
    auth,
    validated({ params: SessionIdParam }, async (ctx, { params }) => {
      const session = await findSession(deps.sql, ctx.state.auth as MerchantAuth, params.session_id);
      if (!session) throw sessionNotFound();
      ctx.body = { data: presentSession(session) };
    }),
  );
}
