import type Router from '@koa/router';
import { activeBankCurrencies } from '../../../db/repositories/bankAccounts';
import { BankDetailsQuery } from '../../../domain/bankTransfer';
import { SessionTokenQuery } from '../../../domain/sessionTokenQuery';
import type { AppDeps, AppState, SessionAuth } from '../../context';
import { sessionTokenAuth } from '../../middlewares/sessionTokenAuth';
import { validated } from '../../middlewares/validated';
import { bankDetails } from './bankDetails';

/** Literal paths under /checkout/sessions/: app.ts registers them before /checkout/sessions/:session_id. */
export function registerBankRoutes(router: Router<AppState>, deps: AppDeps): void {
  const auth = sessionTokenAuth(deps);

  router.get(
    '/checkout/sessions/bank-currencies',
    auth,
    validated({ query: SessionTokenQuery }, async (ctx) => {
      const session = ctx.state.session as SessionAuth;
      ctx.body = { data: { currencies: await activeBankCurrencies(deps.sql, session.merchantId) } };
    }),
  );

  router.get(
    '/checkout/sessions/bank-details',
    auth,
    validated({ query: BankDetailsQuery }, async (ctx, { query }) => {
      ctx.body = { data: await bankDetails(deps, ctx.state.session as SessionAuth, query.currency) };
    }),
  );
}
