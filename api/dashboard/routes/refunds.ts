// The Refunds page: the refunds of the signed-in user's merchant in the chosen mode, newest first, narrowed by status or
// session; and a merchant's refund of one session, created from its detail page.
import type Router from '@koa/router';
import { listRefunds } from '../../../db/repositories/refundListing';
import type { AppDeps } from '../../context';
import { createRefund } from '../../routes/refunds/createRefund';
import { validated } from '../../middlewares/validated';
import { auditUserAction } from '../audit';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { dashboardRefundJson } from '../refundJson';
import { CreateRefundBody, ModeParam, RefundsQuery, SessionParams } from '../schema';

/** The page lists at most this many; a merchant narrows by status or session beyond. */
export const REFUNDS_PAGE_LIMIT = 100;

export function registerRefundRoutes(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql } = deps;

  router.get(
    '/api/:mode/refunds',
    validated({ params: ModeParam, query: RefundsQuery }, async (ctx: DashboardContext, { params, query }) => {
      const refunds = await listRefunds(sql, {
        merchantId: signedInUser(ctx).user.merchantId,
        mode: params.mode,
        ...(query.status ? { status: query.status } : {}),
        ...(query.session_id ? { sessionId: query.session_id } : {}),
        limit: REFUNDS_PAGE_LIMIT,
      });
      ctx.body = { data: refunds.map(dashboardRefundJson) };
    }),
  );

  router.post(
    '/api/:mode/sessions/:session_id/refunds',
    validated({ params: SessionParams, body: CreateRefundBody }, async (ctx: DashboardContext, { params, body }) => {
      const auth = signedInUser(ctx);
      // The API's create, with its checks and its workflow start.
      const caller = { merchantId: auth.user.merchantId, mode: params.mode };
      const { refund: made, replayed } = await createRefund(deps, caller, params.session_id, `dashboard:${body.idempotency_key}`, {
        amount_usd: body.amount_usd,
        ...(body.reason ? { reason: body.reason } : {}),
      });
      if (!replayed)
        await auditUserAction(deps, auth, params.mode, 'refund.create', {
          refund_id: made.id,
          session_id: params.session_id,
          amount_usd: body.amount_usd,
          reason: body.reason ?? null,
        });
      ctx.status = replayed ? 200 : 201;
      ctx.body = { data: dashboardRefundJson(made) };
    }),
  );
}
