/// <reference lib="dom" />
// The page controller: reads the path, asks who is signed in, draws the bar (navigation, the test/live
// switch, sign-out) and hands the main area to the view the path names. Links navigate without a reload.
import { h, replaceChildren } from '../src/dom';
import { api, ApiFailure, setCsrfToken } from './api';
import { link, navigate } from './navigation';
import type { Mode, Me, View } from './types';
import { acceptInviteView } from './views/acceptInvite';
import { developersView } from './views/developers';
import { refundsView } from './views/refunds';
import { sessionDetailView } from './views/sessionDetail';
import { sessionsView } from './views/sessions';
import { settingsView } from './views/settings';
import { statementsView } from './views/statements';
import { signInView } from './views/signIn';

const SECTIONS = [
  ['sessions', 'Sessions'],
  ['refunds', 'Refunds'],
  ['statements', 'Statements'],
  ['developers', 'Developers'],
  ['settings', 'Settings'],
] as const;

export async function render(): Promise<void> {
  const main = document.getElementById('main')!;
  const bar = document.getElementById('bar')!;
  const path = location.pathname.replace(/\/+$/, '');
  if (path === '/dashboard/invite') return show(bar, main, acceptInviteView(location.hash.slice(1)), null);

  let me: Me;
  try {
    me = await api<Me>('GET', '/me');
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401) return show(bar, main, signInView(), null);
    throw error;
  }
  setCsrfToken(me.csrf_token);
  const [, , modeText, section = 'sessions', id] = path.split('/');
  if (modeText !== 'test' && modeText !== 'live') return navigate(`/dashboard/test/sessions`);
  const mode: Mode = modeText;
  const view =
    section === 'developers'
      ? developersView(mode)
      : section === 'settings'
        ? settingsView(me)
        : section === 'refunds'
          ? refundsView(mode)
          : section === 'statements'
            ? statementsView(mode)
            : id
              ? sessionDetailView(mode, id)
              : sessionsView(mode);
  show(bar, main, view, { me, mode, section });
}

function show(bar: HTMLElement, main: HTMLElement, view: View, chrome: { me: Me; mode: Mode; section: string } | null): void {
  replaceChildren(
    bar,
    h('span', { class: 'brand' }, 'Merchant dashboard'),
    chrome ? signedInBar(chrome.me, chrome.mode, chrome.section) : null,
  );
  document.body.dataset.mode = chrome?.mode ?? '';
  document.title = `${view.title} · Merchant dashboard`;
  replaceChildren(main, view.element);
  main.dataset.view = view.name;
  const heading = main.querySelector<HTMLElement>('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

function signedInBar(me: Me, mode: Mode, section: string): HTMLElement {
  const nav = h(
    'nav',
    { 'aria-label': 'Sections' },
    h(
      'ul',
      {},
      ...SECTIONS.map(([key, label]) => h('li', {}, link(`/dashboard/${mode}/${key}`, label, key === section ? 'page' : undefined))),
    ),
  );
  const other: Mode = mode === 'test' ? 'live' : 'test';
  const switcher = h(
    'div',
    { class: `mode mode-${mode}`, role: 'group', 'aria-label': 'Data shown' },
    h('span', { class: 'mode-label' }, mode === 'test' ? 'Test data' : 'Live data'),
    link(`/dashboard/${other}/${section}`, `Switch to ${other}`),
  );
  const signOut = h('button', { type: 'button', class: 'link' }, 'Sign out');
  signOut.addEventListener('click', () => void api('POST', '/sign-out').then(() => navigate('/dashboard')));
  return h(
    'div',
    { class: 'bar-main' },
    h('span', { class: 'merchant' }, me.merchant.name),
    nav,
    switcher,
    h('span', { class: 'who' }, me.user.email),
    signOut,
  );
}
