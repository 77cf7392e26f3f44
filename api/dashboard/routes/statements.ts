// The Statements page: the signed-in user's merchant's statement of one calendar month in the chosen mode, from the
// ledger (domain/settlement/merchantStatement.ts), as JSON for the page and as a CSV download.
import type Router from '@koa/router';
import { loadMerchantStatement } from '../../../db/repositories/merchantStatement';
import { statementCsv, statementLines, statementMonth } from '../../../domain/settlement/merchantStatement';
import { z } from '../../../domain/wire/validationMessages';
import type { AppDeps } from '../../context';
import { validated } from '../../middlewares/validated';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { ModeParam } from '../schema';

const Month = z.string().transform((text, ctx) => {
  const bounds = statementMonth(text);
  if (!bounds) {
    ctx.addIssue({ code: 'custom', message: 'Must be a month as YYYY-MM' });
    return z.NEVER;
  }
  return { text, ...bounds };
});
const StatementParams = ModeParam.extend({ month: Month });

export function registerStatementRoutes(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql } = deps;
  const owner = (ctx: DashboardContext, mode: 'test' | 'live') => ({ merchantId: signedInUser(ctx).user.merchantId, mode });

  router.get(
    '/api/:mode/statements/:month.csv',
    validated({ params: StatementParams }, async (ctx: DashboardContext, { params }) => {
      const who = owner(ctx, params.mode);
      const statement = await loadMerchantStatement(sql, who, params.month);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="statement-${params.mode}-${params.month.text}.csv"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = statementCsv(who.merchantId, params.mode, statement);
    }),
  );

  router.get(
    '/api/:mode/statements/:month',
    validated({ params: StatementParams }, async (ctx: DashboardContext, { params }) => {
      const statement = await loadMerchantStatement(sql, owner(ctx, params.mode), params.month);
      ctx.body = {
        data: { month: statement.month, lines: statementLines(statement).map((l) => ({ line: l.line, amount_usdc: l.amountUsdc })) },
      };
    }),
  );
}
