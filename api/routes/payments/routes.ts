import type Router from '@koa/router';
import { SelectPaymentRequest } from '../../../domain/payment';
import { SessionTokenQuery } from '../../../domain/sessionTokenQuery';
import type { AppDeps, AppState } from '../../context';
import { merchantOrSessionAuth } from '../../middlewares/merchantOrSessionAuth';
import { validated } from '../../middlewares/validated';
import { selectPayment } from './selectPayment';

/** A literal path under /checkout/sessions/: app.ts registers it before /checkout/sessions/:session_id. */
export function registerPaymentRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.post(
    '/checkout/sessions/select-payment',
    merchantOrSessionAuth(deps),
    validated({ query: SessionTokenQuery, body: SelectPaymentRequest }, async (ctx, { body }) => {
      ctx.body = { data: await selectPayment(deps, ctx.state, body) };
    }),
  );
}
