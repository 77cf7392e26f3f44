// The dashboard's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site sends it),
// Secure everywhere but development, scoped to /dashboard. It carries only a random token.
import type { Config } from '../../config/env';
import { ABSOLUTE_LIFETIME_MS } from '../../domain/security/dashboardSession';
import type { DashboardContext } from './context';

export const SESSION_COOKIE = 'dashboard_session';

const cookieOptions = (config: Config) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: config.appEnv !== 'development',
  path: '/dashboard',
  overwrite: true,
});

export function setSessionCookie(ctx: DashboardContext, config: Config, token: string): void {
  // Behind TLS-terminating proxies Koa may not know the connection is secure; the flag is ours to decide.
  ctx.cookies.secure = true;
  ctx.cookies.set(SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: ABSOLUTE_LIFETIME_MS });
}

export function clearSessionCookie(ctx: DashboardContext, config: Config): void {
  ctx.cookies.secure = true;
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(config), maxAge: 0 });
}
