// The hosted checkout page (checkout_url_with_token): its HTML and its bundled script and stylesheet. The
// session-token endpoints its script calls live with the other session routes.
import type Router from '@koa/router';
import type Koa from 'koa';
import { SESSION_ID_PATTERN } from '../../../domain/wire/ids';
import type { AppContext, AppDeps, AppState } from '../../context';
import { assetsWhenReady, pageAssets, type PageAsset, type PageAssets } from './pageAssets';
import { PAGE_CSP, renderPageHtml } from './pageHtml';

/** The bundled assets once they are ready; a 503 for every page request if bundling failed (logged once). */
export function loadHostedPageAssets(deps: Pick<AppDeps, 'logger'>): () => Promise<PageAssets> {
  return assetsWhenReady(pageAssets(), deps.logger, 'The checkout page is unavailable');
}

export function registerHostedPageRoutes(router: Router<AppState>, ready: () => Promise<PageAssets>): void {
  router.get('/checkout/assets/checkout.js', async (ctx) => sendAsset(ctx, (await ready()).script));
  router.get('/checkout/assets/checkout.css', async (ctx) => sendAsset(ctx, (await ready()).styles));

  router.get('/checkout/:session_id', async (ctx) => {
    const sessionId = (ctx as unknown as { params: { session_id: string } }).params.session_id;
    // Only the shape is checked: whether a session exists is told to holders of its token alone. The route
    // matches ids case-insensitively, as every path does; an id in the wrong case is no session id.
    sendPage(ctx, await ready(), SESSION_ID_PATTERN.test(sessionId));
  });
}

/**
 * After the router: a one-segment path under /checkout/ that no route took (so not a session id) is a
 * mistyped checkout link a person opened, and gets the page's "not found" rather than a JSON error.
 */
export function unknownCheckoutPage(ready: () => Promise<PageAssets>): Koa.Middleware<AppState> {
  // Other requests pass straight on: an async step in every request's chain costs its promises.
  return (ctx, next) => {
    if (ctx.method !== 'GET' || !/^\/checkout\/[^/]+$/.test(ctx.path)) return next();
    return next().then(async () => {
      if (ctx.status === 404 && ctx.body === undefined) sendPage(ctx, await ready(), false);
    });
  };
}

function sendPage(ctx: AppContext, assets: PageAssets, known: boolean): void {
  ctx.status = known ? 200 : 404;
  ctx.type = 'text/html; charset=utf-8';
  setPageHeaders(ctx);
  // The URL carries the session token: never cached, never sent on as a referrer.
  ctx.set('Cache-Control', 'no-store');
  ctx.body = renderPageHtml(assets, { state: known ? 'checkout' : 'unknown-session' });
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
