// GET /checkout/sessions: the key's merchant and mode's sessions in a created-date range (required, bounded,
// see domain/wire/sessionListQuery.ts), optionally by status, chain, token or transaction id; newest first.
import type Router from '@koa/router';
import { listSessions } from '../../../db/repositories/sessionList';
import { SessionListQuery } from '../../../domain/wire/sessionListQuery';
import { merchantAuth, type AppDeps, type AppState } from '../../context';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { validated } from '../../middlewares/validated';
import { presentSession } from './present';

export function registerListSessionsRoute(router: Router<AppState>, deps: AppDeps): void {
  router.get(
    '/checkout/sessions',
    apiKeyAuth(deps),
    validated({ query: SessionListQuery }, async (ctx, { query }) => {
      const sessions = await listSessions(deps.sql, merchantAuth(ctx), query);
      ctx.body = { data: sessions.map((session) => presentSession(session, deps.registry, deps.offer)) };
    }),
  );
}
