// The claim page's HTML shell and bundled script. Like the hosted checkout page (../hostedPage/) it holds no refund
// data: its script reads the token from the path and asks the API for the rest. Bundled from page/src/refund/ with
// the checkout page's own stylesheet, once per process.
import type { Logger } from '../../../observability/logger';
import { assetsWhenReady, bundleAssets, PAGE_DIR, type PageAssets } from '../hostedPage/pageAssets';
import { escapeHtml, renderPageShell } from '../hostedPage/pageHtml';

let bundled: Promise<PageAssets> | undefined;

export function loadRefundClaimPageAssets(deps: { logger: Logger }): () => Promise<PageAssets> {
  bundled ??= bundleAssets(`${PAGE_DIR}src/refund/main.ts`, `${PAGE_DIR}styles.css`);
  return assetsWhenReady(bundled, deps.logger, 'The refund page is unavailable');
}

export function renderClaimPageHtml(assets: PageAssets, known: boolean): string {
  return renderPageShell({
    title: 'Your refund',
    brand: 'Refund',
    stylesheet: `/refunds/assets/refund.css?v=${assets.styles.version}`,
    script: known ? `/refunds/assets/refund.js?v=${assets.script.version}` : null,
    main: known
      ? '<p class="loading">Loading your refund…</p><noscript><p>This page needs JavaScript to show your refund.</p></noscript>'
      : `<h1 tabindex="-1">Refund not found</h1><p>${escapeHtml('This link does not lead to a refund. Open the full link you were sent, or contact the merchant.')}</p>`,
    footer: "Refunds are paid in USDC. Nobody from this service will ever ask for your wallet's recovery phrase.",
  });
}
