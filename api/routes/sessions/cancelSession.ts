// cancel: the merchant ends a session before any payment arrived. The workflow decides (it refuses once a
// deposit exists or the session is closed) and writes the read model before the update returns, so the
// session read back afterwards is the cancelled one.
import { findSession } from '../../../db/repositories/sessions';
import { UNSTATED_CANCEL_REASON, type CancelSessionRequest } from '../../../domain/wire/cancel';
import type { CheckoutSession } from '../../../domain/wire/session';
import { cancelUpdate } from '../../../workflows/messages';
import type { AppDeps, MerchantAuth } from '../../context';
import { sessionNotFound } from '../../errors';
import { executeSessionUpdate } from '../../sessionUpdates';
import { presentSession } from './present';

export async function cancelSession(
  deps: AppDeps,
  auth: MerchantAuth,
  sessionId: string,
  body: CancelSessionRequest,
): Promise<CheckoutSession> {
  const session = await findSession(deps.sql, auth, sessionId);
  if (!session) throw sessionNotFound();
  const request = { reason: body?.reason ?? UNSTATED_CANCEL_REASON, by: 'merchant' as const };
  await executeSessionUpdate(deps, session, cancelUpdate, request, (failure) => failure.type === 'CancelRefused');
  const cancelled = await findSession(deps.sql, auth, sessionId);
  if (!cancelled) throw sessionNotFound();
  return presentSession(cancelled, deps.registry, deps.offer);
}
