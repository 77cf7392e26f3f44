// The HTML shell of the hosted checkout page. It holds no session data and no secret: the script reads the
// session id from the path and the token from the query, and asks the API for everything else.
import type { PageAssets } from './pageAssets';

/** Self only; images may be data: URLs because the QR code is rendered to one in the browser. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderPageHtml(assets: PageAssets, body: { state: 'checkout' } | { state: 'unknown-session' }): string {
  const main =
    body.state === 'checkout'
      ? '<p class="loading">Loading your checkout…</p><noscript><p>This checkout needs JavaScript to show the payment details.</p></noscript>'
      : `<h1 tabindex="-1">Checkout not found</h1><p>${escapeHtml('This link does not lead to a checkout. Ask the merchant for a new payment link.')}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Checkout</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${assets.styles.version}">
${body.state === 'checkout' ? `<script defer src="/checkout/assets/checkout.js?v=${assets.script.version}"></script>\n` : ''}</head>
<body>
<header class="bar"><span class="brand">Secure checkout</span></header>
<main id="main" tabindex="-1">${main}</main>
<footer class="foot"><p>Payments settle in USDC. Nobody from this checkout will ever ask for your wallet's recovery phrase.</p></footer>
</body>
</html>
`;
}
