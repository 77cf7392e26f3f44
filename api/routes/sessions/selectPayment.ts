// select-payment (docs/api.md#tokens-quotes-and-payment-selection): the merchant's server (API key) or the hosted page (session token) picks the
// token and chain; the session workflow generates the deposit address and answers with the instructions.
import { findSession, findSessionById, type SessionView } from '../../../db/repositories/sessions';
import { toTokenChainSet, type TokenChainPairs } from '../../../domain/chains/chains';
import { payablePairs } from '../../../domain/session/payablePairs';
import type { PaymentInstructions, SelectPaymentRequest } from '../../../domain/wire/payment';
import { selectPaymentUpdate } from '../../../workflows/messages';
import type { AppDeps, AppState } from '../../context';
import { ForbiddenError, ValidationFailedError, sessionNotFound } from '../../errors';
import { executeSessionUpdate } from '../../sessionUpdates';

export async function selectPayment(deps: AppDeps, state: AppState, body: SelectPaymentRequest): Promise<PaymentInstructions> {
  const session = await sessionFor(deps, state, body.session_id);
  const { token, chain } = body;
  const payable = payablePairs(deps.registry, deps.offer, session.mode, session.supportedTokens);
  if (!payable[token]?.includes(chain)) {
    throw new ValidationFailedError([
      `chain: ${token} on ${chain} is not supported for this session; supported: ${describePairs(payable)}`,
    ]);
  }
  // Typed against the response schema: a change to the workflow's PaymentInstructions that breaks the
  // contract's shape fails to compile here.
  const instructions: PaymentInstructions = await executeSessionUpdate(
    deps,
    session,
    selectPaymentUpdate,
    { token, chain },
    (failure) => failure.type === 'SelectionRefused',
  );
  return instructions;
}

/** A key reaches its own merchant's sessions in its own mode; a session token reaches its one session. */
async function sessionFor(deps: AppDeps, state: AppState, sessionId: string): Promise<SessionView> {
  if (state.session) {
    // Refused without a lookup, so a token holder learns nothing about whether another session exists.
    if (state.session.sessionId !== sessionId) throw new ForbiddenError('This session token does not belong to session_id');
    const own = await findSessionById(deps.sql, sessionId);
    if (!own) throw sessionNotFound();
    return own;
  }
  if (!state.auth) throw new Error('select-payment must run after merchantOrSessionAuth');
  const session = await findSession(deps.sql, state.auth, sessionId);
  if (!session) throw sessionNotFound();
  return session;
}

function describePairs(pairs: TokenChainPairs): string {
  const { tokens } = toTokenChainSet(pairs);
  const parts = Object.entries(tokens).map(([symbol, { chain }]) => `${symbol} on ${chain.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'none';
}
