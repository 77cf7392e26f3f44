// simulate (docs/api.md#simulate): forces a test session into any status through the workflow, so the read model and
// webhooks follow exactly as for a natural change. Never in production, never for live sessions.
import type Koa from 'koa';
import type { Config } from '../../../config/env';
import { findSession } from '../../../db/repositories/sessions';
import type { SimulateRequest, SimulateResponse } from '../../../domain/wire/simulate';
import { simulateUpdate } from '../../../workflows/messages';
import type { AppDeps, AppState, MerchantAuth } from '../../context';
import { ForbiddenError, sessionNotFound } from '../../errors';
import { executeSessionUpdate } from '../../sessionUpdates';

/** Checked before the body is read: the answer in production does not depend on what was sent. */
export function simulationAllowed(config: Pick<Config, 'appEnv'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    if (config.appEnv === 'production') throw new ForbiddenError('simulate is not available in production');
    if (ctx.state.auth?.mode !== 'test') {
      throw new ForbiddenError('simulate is not available with live keys: live sessions change status only through real payments');
    }
    await next();
  };
}

export async function simulate(deps: AppDeps, auth: MerchantAuth, sessionId: string, body: SimulateRequest): Promise<SimulateResponse> {
  const session = await findSession(deps.sql, auth, sessionId);
  if (!session) throw sessionNotFound();
  // Any refusal by the workflow is a business answer here: simulate exists to exercise those paths.
  const result = await executeSessionUpdate(deps, session, simulateUpdate, { status: body.status }, () => true);
  return { session_id: result.session_id, status: result.status };
}
