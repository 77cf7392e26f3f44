// The merchant refund API (docs/refunds.md#api), an extension beyond the interface contract: every route under
// /checkout/refunds and the create under its session. `:refund_id` only ever matches a refund id (../sessionIdParam.ts).
import type Router from '@koa/router';
import { CancelRefundRequest, CreateRefundRequest, RefundIdParam, RefundListQuery } from '../../../domain/wire/refund';
import { SessionIdParam } from '../../../domain/wire/session';
import { merchantAuth, type AppDeps, type AppState } from '../../context';
import { apiKeyAuth } from '../../middlewares/apiKeyAuth';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKey } from '../../middlewares/idempotencyKey';
import { validated } from '../../middlewares/validated';
import { presentRefund } from '../../refundJson';
import { cancelRefund } from './cancelRefund';
import { createRefund } from './createRefund';
import { getRefund } from './getRefund';
import { listRefunds } from './listRefunds';

export function registerRefundRoutes(router: Router<AppState>, deps: AppDeps): void {
  const byKey = apiKeyAuth(deps);

  router.post(
    '/checkout/sessions/:session_id/refunds',
    byKey,
    idempotencyKey(deps, { required: true }),
    validated({ params: SessionIdParam, body: CreateRefundRequest }, async (ctx, { params, body }) => {
      const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
      const { refund, replayed } = await createRefund(deps, merchantAuth(ctx), params.session_id, key, body);
      if (replayed) ctx.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      ctx.status = replayed ? 200 : 201;
      ctx.body = { data: presentRefund(refund, deps.config) };
    }),
  );

  router.get(
    '/checkout/refunds',
    byKey,
    validated({ query: RefundListQuery }, async (ctx, { query }) => {
      ctx.body = await listRefunds(deps, merchantAuth(ctx), query);
    }),
  );

  router.get(
    '/checkout/refunds/:refund_id',
    byKey,
    validated({ params: RefundIdParam }, async (ctx, { params }) => {
      ctx.body = { data: await getRefund(deps, merchantAuth(ctx), params.refund_id) };
    }),
  );

  router.post(
    '/checkout/refunds/:refund_id/cancel',
    byKey,
    validated({ params: RefundIdParam, body: CancelRefundRequest }, async (ctx, { params, body }) => {
      ctx.body = { data: await cancelRefund(deps, merchantAuth(ctx), params.refund_id, body) };
    }),
  );
}
