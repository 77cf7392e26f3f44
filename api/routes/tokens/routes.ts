import type Router from '@koa/router';
import { TokenListQuery, tokenCatalog } from '../../../domain/chains/tokenCatalog';
import type { AppDeps, AppState } from '../../context';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { validated } from '../../middlewares/validated';

export function registerTokenRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(
    '/checkout/tokens',
    apiKeyAuth(deps),
    validated({ query: TokenListQuery }, async (ctx, { query }) => {
      const [test, live] = await Promise.all([deps.inventoryCaps.atCap('test'), deps.inventoryCaps.atCap('live')]);
      ctx.body = { data: { tokens: tokenCatalog(deps.registry, { ...deps.offer, atCap: { test, live } }, query) } };
    }),
  );
}
