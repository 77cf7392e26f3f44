// The customer's refund claim page (docs/refunds.md#claim-flow): its HTML and assets, the state its script polls and
// the claim it sends. No API key: the token in the path (domain/refunds/refundClaimToken.ts) is the credential, and
// every request it authenticates counts against the rate limit of the refund's checkout session, as the hosted page's
// do; a forged token spends the client address's budget of failed authentications.
import type Router from '@koa/router';
import type Koa from 'koa';
import { requireSessionTokenSecret } from '../../../config/env';
import { findRefund } from '../../../db/repositories/refunds';
import { verifyRefundClaimToken } from '../../../domain/refunds/refundClaimToken';
import { RefundClaimRequest, RefundClaimTokenParam } from '../../../domain/wire/refund';
import type { AppContext, AppDeps, AppState } from '../../context';
import { authFailureBudget, tooManyFailures } from '../../middlewares/authFailureBudget';
import { rateLimit } from '../../middlewares/rateLimit';
import { validated } from '../../middlewares/validated';
import type { PageAssets } from '../hostedPage/pageAssets';
import { sendAsset, setPageHeaders } from '../hostedPage/routes';
import { renderClaimPageHtml } from './claimPage';
import { claimRefund, refundNotFound } from './claimRefund';
import { claimState } from './claimState';

const tokenOf = (ctx: AppContext) => (ctx as unknown as { params: { token: string } }).params.token;

export function registerRefundClaimRoutes(router: Router<AppState>, deps: AppDeps, ready: () => Promise<PageAssets>): void {
  const secret = () => requireSessionTokenSecret(deps.config);
  const byToken = claimTokenAuth(deps, secret);

  router.get('/refunds/assets/refund.js', async (ctx) => sendAsset(ctx, (await ready()).script));
  router.get('/refunds/assets/refund.css', async (ctx) => sendAsset(ctx, (await ready()).styles));

  router.get('/refunds/:token', async (ctx) => {
    // Checked by its HMAC alone, without a lookup: whether the refund exists is told to the page's script.
    const known = verifyRefundClaimToken(tokenOf(ctx), secret()) !== undefined;
    const assets = await ready();
    ctx.status = known ? 200 : 404;
    ctx.type = 'text/html; charset=utf-8';
    setPageHeaders(ctx);
    // The path is the credential: never cached, never sent on as a referrer.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderClaimPageHtml(assets, known);
  });

  router.get(
    '/refunds/:token/state',
    byToken,
    validated({ params: RefundClaimTokenParam }, async (ctx) => {
      const refund = await findRefund(deps.sql, claimRefundId(ctx, secret()));
      if (!refund) throw refundNotFound();
      ctx.body = { data: await claimState(deps, refund) };
    }),
  );

  router.post(
    '/refunds/:token/claim',
    byToken,
    validated({ params: RefundClaimTokenParam, body: RefundClaimRequest }, async (ctx, { body }) => {
      ctx.body = { data: await claimRefund(deps, ctx.state.log, claimRefundId(ctx, secret()), body) };
    }),
  );
}

/** The refund the path's token names; only called behind claimTokenAuth, which refused any other token. */
function claimRefundId(ctx: AppContext, secret: string): string {
  const refundId = verifyRefundClaimToken(tokenOf(ctx), secret);
  if (!refundId) throw new Error(`${ctx.method} ${ctx.path} must run after claimTokenAuth`);
  return refundId;
}

function claimTokenAuth(
  deps: Pick<AppDeps, 'sql' | 'config' | 'now' | 'authFailures' | 'rateLimitLeases'>,
  secret: () => string,
): Koa.Middleware<AppState> {
  const limited = rateLimit(deps, 'session');
  const failures = authFailureBudget(deps);
  return async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    const refundId = verifyRefundClaimToken(tokenOf(ctx), secret());
    if (!refundId) {
      const blockedFor = failures.blockedFor(ctx);
      if (blockedFor !== undefined) throw tooManyFailures(blockedFor);
      throw await failures.failed(ctx, refundNotFound());
    }
    const refund = await findRefund(deps.sql, refundId);
    if (!refund) throw refundNotFound();
    ctx.state.session = { sessionId: refund.sessionId, merchantId: refund.merchantId, mode: refund.mode };
    ctx.state.bindLog({ refundId, sessionId: refund.sessionId, merchantId: refund.merchantId, mode: refund.mode });
    await limited(ctx, next);
  };
}
