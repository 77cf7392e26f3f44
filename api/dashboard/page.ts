// The dashboard's HTML shell and its bundled script and stylesheet (page/dashboard/), served like the
// hosted checkout page: bundled by esbuild at start-up, same-origin only, under the same strict CSP.
import type Router from '@koa/router';
import { assetsWhenReady, bundleAssets, PAGE_DIR, type PageAssets } from '../routes/hostedPage/pageAssets';
import { sendAsset, setPageHeaders } from '../routes/hostedPage/routes';
import type { AppDeps } from '../context';
import { NotFoundError } from '../errors';
import type { DashboardState } from './context';

let bundled: Promise<PageAssets> | undefined;

function dashboardAssets(): Promise<PageAssets> {
  bundled ??= bundleAssets(`${PAGE_DIR}dashboard/main.ts`, `${PAGE_DIR}dashboard/dashboard.css`);
  return bundled;
}

const shell = (assets: PageAssets) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Merchant dashboard</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css?v=${assets.styles.version}">
<script defer src="/dashboard/assets/dashboard.js?v=${assets.script.version}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar" id="bar"><span class="brand">Merchant dashboard</span></header>
<main id="main" tabindex="-1"><p>Loading…</p><noscript><p>The dashboard needs JavaScript.</p></noscript></main>
</body>
</html>
`;

/** Registered after the JSON API: every other path under /dashboard is a page the script routes itself. */
export function registerDashboardPage(router: Router<DashboardState>, deps: AppDeps): void {
  const ready = assetsWhenReady(dashboardAssets(), deps.logger, 'The dashboard is unavailable');

  // The JSON API's unknown paths answer as the API does, not with the page.
  router.all('/api/{*unknown}', () => {
    throw new NotFoundError('Not found');
  });
  router.get('/assets/dashboard.js', async (ctx) => sendAsset(ctx, (await ready()).script));
  router.get('/assets/dashboard.css', async (ctx) => sendAsset(ctx, (await ready()).styles));
  router.get(['/', '/{*page}'], async (ctx) => {
    const loaded = await ready();
    ctx.type = 'text/html; charset=utf-8';
    setPageHeaders(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = shell(loaded);
  });
}
