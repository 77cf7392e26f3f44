import type Router from '@koa/router';
import { findSessionByTransaction } from '../../../db/repositories/sessions';
import { TransactionLookup } from '../../../domain/wire/session';
import { merchantAuth, type AppDeps, type AppState } from '../../context';
import { NotFoundError } from '../../errors';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { validated } from '../../middlewares/validated';
import { presentTransaction } from '../sessions/present';

export function registerTransactionRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(
    '/checkout/transactions/:transaction_id',
    apiKeyAuth(deps),
    validated(
      { params: TransactionLookup.pick({ transaction_id: true }), query: TransactionLookup.pick({ by_ext_transaction_id: true }) },
      async (ctx, { params, query }) => {
        const id = params.transaction_id;
        const lookup = query.by_ext_transaction_id === 'true' ? { extTransactionId: id } : { transactionId: id };
        const session = await findSessionByTransaction(deps.sql, merchantAuth(ctx), lookup);
        if (!session) throw new NotFoundError('Transaction not found');
        ctx.body = { data: presentTransaction(session) };
      },
    ),
  );
}
