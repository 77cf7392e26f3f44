// The claim page's HTML shell and bundled script. Like the hosted checkout page (../hostedPage/) it holds no refund
// data: its script reads the token from the path and asks the API for the rest. Bundled from page/src/refund/ with
// the checkout page's own stylesheet, once per process.
import type { Logger } from '../../../observability/logger';
import { assetsWhenReady, bundleAssets, PAGE_DIR, type PageAssets } from '../hostedPage/pageAssets';

let bundled: Promise<PageAssets> | undefined;

export function loadRefundClaimPageAssets(deps: { logger: Logger }): () => Promise<PageAssets> {
  bundled ??= bundleAssets(`${PAGE_DIR}src/refund/main.ts`, `${PAGE_DIR}styles.css`);
  return assetsWhenReady(bundled, deps.logger, 'The refund page is unavailable');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderClaimPageHtml(assets: PageAssets, known: boolean): string {
  const main = known
    ? '<p class="loading">Loading your refund…</p><noscript><p>This page needs JavaScript to show your refund.</p></noscript>'
    : `<h1 tabindex="-1">Refund not found</h1><p>${escapeHtml('This link does not lead to a refund. Open the full link you were sent, or contact the merchant.')}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Your refund</title>
<link rel="stylesheet" href="/refunds/assets/refund.css?v=${assets.styles.version}">
${known ? `<script defer src="/refunds/assets/refund.js?v=${assets.script.version}"></script>\n` : ''}</head>
<body>
<header class="bar"><span class="brand">Refund</span></header>
<main id="main" tabindex="-1">${main}</main>
<footer class="foot"><p>Refunds are paid in USDC. Nobody from this service will ever ask for your wallet's recovery phrase.</p></footer>
</body>
</html>
`;
}
