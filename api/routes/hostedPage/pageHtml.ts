// The HTML shell of the hosted checkout page. It holds no session data and no secret: the script reads the
// session id from the path and the token from the query, and asks the API for everything else.
import type { PageAssets } from './pageAssets';

/** Self only; images may be data: URLs because the QR code is rendered to one in the browser. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderPageHtml(assets: PageAssets, body: { state: 'checkout' } | { state: 'unknown-session' }): string {
  const known = body.state === 'checkout';
  return renderPageShell({
    title: 'Checkout',
    brand: 'Secure checkout',
    stylesheet: `/checkout/assets/checkout.css?v=${assets.styles.version}`,
    script: known ? `/checkout/assets/checkout.js?v=${assets.script.version}` : null,
    main: known
      ? '<p class="loading">Loading your checkout…</p><noscript><p>This checkout needs JavaScript to show the payment details.</p></noscript>'
      : `<h1 tabindex="-1">Checkout not found</h1><p>${escapeHtml('This link does not lead to a checkout. Ask the merchant for a new payment link.')}</p>`,
    footer: "Payments settle in USDC. Nobody from this checkout will ever ask for your wallet's recovery phrase.",
  });
}

/**
 * The shell of a page served to customers under PAGE_CSP (this one, the refund claim page): no data of its own, only
 * the bundle that asks the API; a page for an unknown link loads no script.
 */
export function renderPageShell(page: {
  title: string;
  brand: string;
  stylesheet: string;
  script: string | null;
  main: string;
  footer: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${page.title}</title>
<link rel="stylesheet" href="${page.stylesheet}">
${page.script ? `<script defer src="${page.script}"></script>\n` : ''}</head>
<body>
<header class="bar"><span class="brand">${page.brand}</span></header>
<main id="main" tabindex="-1">${page.main}</main>
<footer class="foot"><p>${page.footer}</p></footer>
</body>
</html>
`;
}
