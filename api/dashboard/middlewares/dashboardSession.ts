// Finds the signed-in user from the session cookie, ends sessions past their idle or absolute limit, and
// refuses every state change that does not prove it came from the dashboard's own page: its Origin (when
// the browser sends one) must be this server, and its x-csrf-token header must match the session's token.
// SameSite=Strict already keeps other sites' requests cookie-less; the token is the second, independent lock.
import type Koa from 'koa';
import { deleteDashboardSession, findDashboardSession, touchDashboardSession } from '../../../db/repositories/dashboardSessions';
import { findUser } from '../../../db/repositories/merchantUsers';
import { csrfTokenMatches, hashToken, sessionExpired } from '../../../domain/security/dashboardSession';
import type { AppDeps } from '../../context';
import { ForbiddenError } from '../../errors';
import type { DashboardState } from '../context';
import { SESSION_COOKIE } from '../sessionCookie';

export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function dashboardSession(deps: Pick<AppDeps, 'sql' | 'now'>): Koa.Middleware<DashboardState> {
  return async (ctx, next) => {
    const stateChange = !SAFE_METHODS.has(ctx.method);
    const origin = ctx.get('origin');
    if (stateChange && origin && origin !== `${ctx.protocol}://${ctx.host}`)
      throw new ForbiddenError('Request refused: it did not come from the dashboard');

    const token = ctx.cookies.get(SESSION_COOKIE);
    if (token) {
      const sessionHash = hashToken(token);
      const session = await findDashboardSession(deps.sql, sessionHash);
      const now = deps.now?.() ?? new Date();
      if (session && sessionExpired(session, now)) await deleteDashboardSession(deps.sql, sessionHash);
      else if (session) {
        const user = await findUser(deps.sql, session.userId);
        if (user) {
          await touchDashboardSession(deps.sql, sessionHash, now);
          // Refused where the session is used (signedInUser), so signing in again over a stale cookie still works.
          if (stateChange && !csrfTokenMatches(session.csrfToken, ctx.get(CSRF_HEADER))) ctx.state.csrfRefused = true;
          else ctx.state.dashboard = { user, sessionHash, csrfToken: session.csrfToken };
          ctx.state.bindLog({ userId: user.id, merchantId: user.merchantId });
        }
      }
    }
    await next();
  };
}
