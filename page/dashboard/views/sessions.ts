/// <reference lib="dom" />
// The Sessions list: filters (created-date range, status, chain, token, transaction id), newest first, each
// row linking to its detail page, and a CSV export of exactly the filtered list.
import { h, replaceChildren } from '../../src/dom';
import { api } from '../api';
import { link } from '../navigation';
import { field, form, input, showError, text } from '../forms';
import type { Mode, View } from '../types';

const STATUSES = ['pending', 'awaiting_payment', 'confirming', 'completed', 'underpaid', 'overpaid', 'expired', 'failed', 'cancelled'];
const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'solana', 'tron'];
const TOKENS = ['USDC', 'USDT'];
const DAY_MS = 86_400_000;

interface SessionRow {
  session_id: string;
  transaction_id: string;
  status: string;
  amount_usd: number;
  token: string | null;
  chain: string | null;
  /** The ledger owes the customer back some of the session's deposits (docs/dashboard.md#deposits-and-money-owed-back). */
  owes_customer: boolean;
  created_at: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

function select(name: string, options: string[]): HTMLSelectElement {
  return h('select', { name }, h('option', { value: '' }, 'Any'), ...options.map((o) => h('option', { value: o }, o)));
}

/** Date inputs are whole UTC days; the end day is included, so the range ends at the next midnight. */
function queryFrom(data: FormData): string {
  const params = new URLSearchParams();
  const from = text(data, 'from');
  const to = text(data, 'to');
  if (from) params.set('created_from', `${from}T00:00:00Z`);
  if (to) params.set('created_to', new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString());
  for (const name of ['status', 'chain', 'token', 'transaction_id']) if (text(data, name)) params.set(name, text(data, name));
  return params.toString();
}

export function sessionsView(mode: Mode): View {
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const exportLink = h('a', { class: 'export', download: true }, 'Export CSV');
  const today = new Date();
  const filters = form({
    label: 'Filter sessions',
    submit: 'Apply filters',
    fields: [
      h(
        'div',
        { class: 'filters' },
        field('Created from', input({ name: 'from', type: 'date', value: day(new Date(today.getTime() - 29 * DAY_MS)) })),
        field('Created to', input({ name: 'to', type: 'date', value: day(today) })),
        field('Status', select('status', STATUSES)),
        field('Chain', select('chain', CHAINS)),
        field('Token', select('token', TOKENS)),
        field('Transaction id', input({ name: 'transaction_id', type: 'search' })),
      ),
    ],
    onSubmit: (data) => load(queryFrom(data)),
  });

  async function load(query: string): Promise<void> {
    exportLink.setAttribute('href', `/dashboard/api/${mode}/export/sessions.csv?${query}`);
    const sessions = await api<SessionRow[]>('GET', `/${mode}/sessions?${query}`);
    replaceChildren(results, sessions.length === 0 ? h('p', {}, 'No sessions match these filters.') : table(sessions, mode));
  }

  const element = h(
    'div',
    {},
    h('h1', {}, 'Sessions'),
    h('section', { class: 'card' }, filters, h('p', {}, exportLink, ' (the filtered list, up to 31 days)')),
    results,
  );
  load(queryFrom(new FormData(filters))).catch((error: unknown) => showError(results, error));
  return { name: 'sessions', title: 'Sessions', element };
}

function table(sessions: SessionRow[], mode: Mode): HTMLElement {
  return h(
    'table',
    { class: 'sessions' },
    h('caption', { class: 'visually-hidden' }, 'Sessions, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Session', 'Transaction id', 'Status', 'Amount (USD)', 'Token', 'Chain', 'Created'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      ...sessions.map((s) =>
        h(
          'tr',
          { 'data-session-id': s.session_id },
          h('td', {}, link(`/dashboard/${mode}/sessions/${s.session_id}`, s.session_id)),
          h('td', {}, s.transaction_id),
          h(
            'td',
            {},
            h('span', { class: `status status-${s.status}` }, s.status),
            s.owes_customer && h('span', { class: 'badge owed', title: 'Money is owed back to the customer' }, 'owed back'),
          ),
          h('td', { class: 'number' }, s.amount_usd.toFixed(2)),
          h('td', {}, s.token ?? ''),
          h('td', {}, s.chain ?? ''),
          h('td', {}, s.created_at),
        ),
      ),
    ),
  );
}
