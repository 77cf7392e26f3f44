/// <reference lib="dom" />
// Entry of the hosted checkout page (bundled by api/routes/hostedPage/pageAssets.ts). The session id comes
// from the path and the session token from ?token= of checkout_url_with_token. The token leaves the address
// bar at once (history.replaceState), so it is not shared with a screenshot, a copied link or the browser's
// history; the tab keeps it in sessionStorage, so a reload still works.
import { createApi } from './api';
import { startCheckout } from './checkout';
import { focusHeading, replaceChildren } from './dom';
import { renderProblem } from './views/outcome';

const root = document.getElementById('main');
if (root) {
  const sessionId = decodeURIComponent(window.location.pathname.split('/').filter(Boolean).pop() ?? '');
  const token = takeToken(sessionId);
  if (token) {
    startCheckout(root, sessionId, createApi(token));
  } else {
    root.dataset.step = 'problem:missing-token';
    replaceChildren(root, renderProblem('missing-token'));
    focusHeading(root);
  }
}

function takeToken(sessionId: string): string | null {
  const key = `checkout-token:${sessionId}`;
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get('token');
  if (fromUrl === null) return readStored(key);
  params.delete('token');
  const query = params.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`);
  try {
    window.sessionStorage.setItem(key, fromUrl);
  } catch {
    // Storage refused (a privacy mode): this load works, a reload will ask for the link again.
  }
  return fromUrl;
}

function readStored(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
