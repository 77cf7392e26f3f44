/// <reference lib="dom" />
// Entry of the hosted checkout page (bundled by api/routes/hostedPage/pageAssets.ts). The session id comes
// from the path and the session token from ?token= of checkout_url_with_token.
import { createApi } from './api';
import { startCheckout } from './checkout';
import { focusHeading, replaceChildren } from './dom';
import { renderProblem } from './views/outcome';

const root = document.getElementById('main');
if (root) {
  const sessionId = decodeURIComponent(window.location.pathname.split('/').filter(Boolean).pop() ?? '');
  const token = new URLSearchParams(window.location.search).get('token');
  if (token) {
    startCheckout(root, sessionId, createApi(token));
  } else {
    root.dataset.step = 'problem:missing-token';
    replaceChildren(root, renderProblem('missing-token'));
    focusHeading(root);
  }
}
