/// <reference lib="dom" />
// Moving between dashboard pages without a reload. A move announces itself as a history change, which
// main.ts renders exactly as it renders the browser's back and forward buttons; so the views can link
// without importing the page that shows them.
import { h } from '../src/dom';

export function navigate(path: string): void {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function link(href: string, label: string, current?: 'page'): HTMLAnchorElement {
  const a = h('a', { href, 'aria-current': current });
  a.textContent = label;
  a.addEventListener('click', (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  });
  return a;
}
