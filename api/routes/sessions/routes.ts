// Every route under /checkout/sessions. `:session_id` only ever matches a session id (sessionIdParam.ts),
// so the literal paths beside it need no particular registration order.
import type Router from '@koa/router';
import { activeBankCurrencies } from '../../../db/repositories/bankAccounts';
import { findSession } from '../../../db/repositories/sessions';
import { BankDetailsQuery } from '../../../domain/session/bankTransfer';
import { CancelSessionRequest } from '../../../domain/wire/cancel';
import { SelectPaymentRequest } from '../../../domain/wire/payment';
import { CreateSessionRequest, SessionIdParam } from '../../../domain/wire/session';
import { SessionTokenQuery } from '../../../domain/wire/sessionTokenQuery';
import { SimulateRequest } from '../../../domain/wire/simulate';
import { merchantAuth, sessionAuth, type AppDeps, type AppState } from '../../context';
import { sessionNotFound } from '../../errors';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { idempotencyKey } from '../../middlewares/idempotencyKey';
import { merchantOrSessionAuth } from '../../middlewares/merchantOrSessionAuth';
import { sessionTokenAuth } from '../../middlewares/sessionTokenAuth';
import { validated } from '../../middlewares/validated';
import { bankDetails } from './bankDetails';
import { cancelSession } from './cancelSession';
import { createSession } from './createSession';
import { currentSession } from './currentSession';
import { presentCreatedSession, presentSession } from './present';
import { selectPayment } from './selectPayment';
import { simulate, simulationAllowed } from './simulate';

export function registerSessionRoutes(router: Router<AppState>, deps: AppDeps): void {
  const byKey = apiKeyAuth(deps);
  const byToken = sessionTokenAuth(deps);

  router.post(
    '/checkout/sessions',
    byKey,
    idempotencyKey(deps),
    validated({ body: CreateSessionRequest }, async (ctx, { body }) => {
      const { session, replayed } = await createSession(deps, merchantAuth(ctx), body);
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      ctx.status = replayed ? 200 : 201;
      ctx.body = { data: presentCreatedSession(session, deps.config) };
    }),
  );

  router.get(
    '/checkout/sessions/:session_id',
    byKey,
    validated({ params: SessionIdParam }, async (ctx, { params }) => {
      const session = await findSession(deps.sql, merchantAuth(ctx), params.session_id);
      if (!session) throw sessionNotFound();
      ctx.body = { data: presentSession(session, deps.registry, deps.offer) };
    }),
  );

  router.post(
    '/checkout/sessions/:session_id/cancel',
    byKey,
    validated({ params: SessionIdParam, body: CancelSessionRequest }, async (ctx, { params, body }) => {
      ctx.body = { data: await cancelSession(deps, merchantAuth(ctx), params.session_id, body) };
    }),
  );

  router.post(
    '/checkout/sessions/:session_id/simulate',
    byKey,
    simulationAllowed(deps.config),
    validated({ params: SessionIdParam, body: SimulateRequest }, async (ctx, { params, body }) => {
      ctx.body = { data: await simulate(deps, merchantAuth(ctx), params.session_id, body) };
    }),
  );

  router.post(
    '/checkout/sessions/select-payment',
    merchantOrSessionAuth(deps),
    validated({ query: SessionTokenQuery, body: SelectPaymentRequest }, async (ctx, { body }) => {
      ctx.body = { data: await selectPayment(deps, ctx.state, body) };
    }),
  );

  router.get(
    '/checkout/sessions/current',
    byToken,
    validated({ query: SessionTokenQuery }, async (ctx) => {
      ctx.body = { data: await currentSession(deps, sessionAuth(ctx)) };
    }),
  );

  router.get(
    '/checkout/sessions/bank-currencies',
    byToken,
    validated({ query: SessionTokenQuery }, async (ctx) => {
      ctx.body = { data: { currencies: await activeBankCurrencies(deps.sql, sessionAuth(ctx).merchantId) } };
    }),
  );

  router.get(
    '/checkout/sessions/bank-details',
    byToken,
    validated({ query: BankDetailsQuery }, async (ctx, { query }) => {
      ctx.body = { data: await bankDetails(deps, sessionAuth(ctx), query.currency) };
    }),
  );
}
