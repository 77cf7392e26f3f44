import type Router from '@koa/router';
import { QuoteQuery } from '../../../domain/wire/quote';
import { merchantAuth, type AppDeps, type AppState } from '../../context';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { validated } from '../../middlewares/validated';
import { createQuote } from './createQuote';

export function registerQuoteRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(
    '/checkout/quote',
    apiKeyAuth(deps),
    validated({ query: QuoteQuery }, async (ctx, { query }) => {
      ctx.body = { data: await createQuote(deps, merchantAuth(ctx), query) };
    }),
  );
}
