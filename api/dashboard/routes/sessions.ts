// The Sessions pages: the filtered list (and its CSV export), one session's detail, crediting one of its unmatched
// deposits to it, and redelivering one of its webhooks. Everything is scoped to the signed-in user's merchant and the chosen mode.
import type Router from '@koa/router';
import { listSessions, type SessionListItem } from '../../../db/repositories/sessionList';
import { findSession } from '../../../db/repositories/sessions';
import { findWebhookDeliverySession } from '../../../db/repositories/webhookHistory';
import { centsToUsd } from '../../../domain/money/money';
import { SessionListQuery } from '../../../domain/wire/sessionListQuery';
import type { AppDeps } from '../../context';
import { NotFoundError } from '../../errors';
import { validated } from '../../middlewares/validated';
import { startRedelivery } from '../../webhookRedelivery';
import { auditUserAction } from '../audit';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { creditDeposit } from '../depositCredits';
import { CreditDepositBody, DeliveryParams, ModeParam, SessionParams } from '../schema';
import { sessionDetail } from '../sessionDetail';
import { sessionsCsv } from '../sessionsCsv';

const listItemJson = (s: SessionListItem) => ({
  session_id: s.sessionId,
  transaction_id: s.extTransactionId,
  status: s.status,
  amount_usd: centsToUsd(s.amountUsdCents),
  token: s.token,
  chain: s.chain,
  owes_customer: s.owesCustomer,
  created_at: s.createdAt.toISOString(),
});

export function registerSessionPages(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql } = deps;
  const owner = (ctx: DashboardContext, mode: 'test' | 'live') => ({ merchantId: signedInUser(ctx).user.merchantId, mode });

  router.get(
    '/api/:mode/sessions',
    validated({ params: ModeParam, query: SessionListQuery }, async (ctx: DashboardContext, { params, query }) => {
      ctx.body = { data: (await listSessions(sql, owner(ctx, params.mode), query, { owesCustomer: true })).map(listItemJson) };
    }),
  );

  router.get(
    '/api/:mode/export/sessions.csv',
    validated({ params: ModeParam, query: SessionListQuery }, async (ctx: DashboardContext, { params, query }) => {
      const sessions = await listSessions(sql, owner(ctx, params.mode), query);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="sessions-${params.mode}-${query.created_from.toISOString().slice(0, 10)}.csv"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = sessionsCsv(sessions);
    }),
  );

  router.get(
    '/api/:mode/sessions/:session_id',
    validated({ params: SessionParams }, async (ctx: DashboardContext, { params }) => {
      ctx.body = { data: await sessionDetail(deps, owner(ctx, params.mode), params.session_id) };
    }),
  );

  router.post(
    '/api/:mode/sessions/:session_id/deposit-credits',
    validated({ params: SessionParams, body: CreditDepositBody }, async (ctx: DashboardContext, { params, body }) => {
      const auth = signedInUser(ctx);
      const ref = { chain: body.chain, txHash: body.tx_hash, logIndex: body.log_index };
      const credited = await creditDeposit(deps, owner(ctx, params.mode), params.session_id, ref, `dashboard user ${auth.user.email}`);
      await auditUserAction(deps, auth, params.mode, 'deposit.credit', {
        session_id: params.session_id,
        chain: body.chain,
        tx_hash: body.tx_hash,
        log_index: body.log_index,
        refund_id: credited.refundId,
      });
      ctx.body = { data: await sessionDetail(deps, owner(ctx, params.mode), params.session_id) };
    }),
  );

  router.post(
    '/api/:mode/webhook-deliveries/:delivery_id/redeliver',
    validated({ params: DeliveryParams }, async (ctx: DashboardContext, { params }) => {
      const auth = signedInUser(ctx);
      const delivery = await findWebhookDeliverySession(sql, params.delivery_id);
      // A delivery of another merchant's or mode's session does not exist here.
      if (!delivery || !(await findSession(sql, owner(ctx, params.mode), delivery.sessionId)))
        throw new NotFoundError('Webhook delivery not found');
      const started = await startRedelivery(deps.temporal, deps.config.temporal.taskQueue, params.delivery_id);
      await auditUserAction(deps, auth, params.mode, 'webhook.redeliver', {
        delivery_id: params.delivery_id,
        session_id: delivery.sessionId,
        workflow_id: started.workflowId,
      });
      ctx.status = 202;
      ctx.body = { data: { delivery_id: params.delivery_id, workflow_id: started.workflowId } };
    }),
  );
}
