// After the router: `:session_id` only matches session ids, so a path shaped like a session route with
// anything else in that place reaches no route. To the caller it is what it is, a session that does not
// exist: the same 404 `Session not found` as an unknown well-formed id, after the same authentication.
import type Koa from 'koa';
import type { AppDeps, AppState } from '../../context';
import { sessionNotFound } from '../../errors';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';

const SESSION_PATH = /^\/checkout\/sessions\/[^/]+(?:\/(?:cancel|simulate))?\/?$/;

export function unknownSessionPath(deps: AppDeps): Koa.Middleware<AppState> {
  const auth = apiKeyAuth(deps);
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined || !SESSION_PATH.test(ctx.path)) return;
    await auth(ctx, () => {
      throw sessionNotFound();
    });
  };
}
