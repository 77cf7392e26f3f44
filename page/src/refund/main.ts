/// <reference lib="dom" />
// Entry of the refund claim page (bundled by api/routes/refundClaims/claimPage.ts). The claim token is the last path
// segment of the link the customer was sent; it stays in the path (the page's own address), never in a referrer.
import { startClaim } from './claim';

const root = document.getElementById('main');
if (root) startClaim(root, decodeURIComponent(window.location.pathname.split('/').filter(Boolean).pop() ?? ''));
