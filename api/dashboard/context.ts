import type Koa from 'koa';
import type { MerchantUser } from '../../db/repositories/merchantUsers';
import type { AppState } from '../context';
import { ForbiddenError, UnauthenticatedError } from '../errors';

/** The signed-in dashboard user of a request, with the session it came in on. */
export interface DashboardAuth {
  user: MerchantUser;
  sessionHash: Buffer;
  csrfToken: string;
}

export interface DashboardState extends AppState {
  dashboard?: DashboardAuth;
  /** A state change came with a session cookie but without its CSRF token. */
  csrfRefused?: boolean;
}

export type DashboardContext = Koa.ParameterizedContext<DashboardState>;

export function signedInUser(ctx: DashboardContext): DashboardAuth {
  if (ctx.state.csrfRefused) throw new ForbiddenError('Request refused: missing or wrong CSRF token');
  if (!ctx.state.dashboard) throw new UnauthenticatedError('Sign in to continue');
  return ctx.state.dashboard;
}
