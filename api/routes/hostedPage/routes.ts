// The hosted checkout page (checkout_url_with_token): its HTML, its bundled script and stylesheet, and the
// session-token endpoint its script reads the session from.
import type Router from '@koa/router';
import { SESSION_ID_PATTERN } from '../../../domain/ids';
import { SessionTokenQuery } from '../../../domain/sessionTokenQuery';
import type { AppContext, AppDeps, AppState, SessionAuth } from '../../context';
import { sessionTokenAuth } from '../../middlewares/sessionTokenAuth';
import { validated } from '../../middlewares/validated';
import { currentSession } from './currentSession';
import { assetsWhenReady, pageAssets, type PageAsset } from './pageAssets';
import { PAGE_CSP, renderPageHtml } from './pageHtml';

/** A literal path under /checkout/sessions/: app.ts registers it before /checkout/sessions/:session_id. */
export function registerCurrentSessionRoute(router: Router<AppState>, deps: AppDeps): void {
  router.get(
    '/checkout/sessions/current',
    sessionTokenAuth(deps),
    validated({ query: SessionTokenQuery }, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await currentSession(deps, ctx.state.session as SessionAuth) };
    }),
  );
}

/** Registered last: /checkout/:session_id would otherwise also match /checkout/tokens and /checkout/quote. */
export function registerHostedPageRoutes(router: Router<AppState>, deps: AppDeps): void {
  const ready = assetsWhenReady(pageAssets(), deps.logger, 'The checkout page is unavailable');

  router.get('/checkout/assets/checkout.js', async (ctx) => sendAsset(ctx, (await ready()).script));
  router.get('/checkout/assets/checkout.css', async (ctx) => sendAsset(ctx, (await ready()).styles));

  router.get('/checkout/:session_id', async (ctx) => {
    const loaded = await ready();
    const sessionId = (ctx as unknown as { params: { session_id: string } }).params.session_id;
    // Only the shape is checked: whether a session exists is told to holders of its token alone.
    const known = SESSION_ID_PATTERN.test(sessionId);
    ctx.status = known ? 200 : 404;
    ctx.type = 'text/html; charset=utf-8';
    setPageHeaders(ctx);
    // The URL carries the session token: never cached, never sent on as a referrer.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderPageHtml(loaded, { state: known ? 'checkout' : 'unknown-session' });
  });
}

export function setPageHeaders(ctx: AppContext): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
}

export function sendAsset(ctx: AppContext, asset: PageAsset): void {
  const etag = `"${asset.version}"`;
  ctx.set('ETag', etag);
  ctx.set('Vary', 'Accept-Encoding');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Linked with ?v=<content hash>: a changed bundle gets a new URL, so this one can be cached for good.
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.type = asset.contentType;
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return;
  }
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzip;
  } else {
    ctx.body = asset.body;
  }
}
