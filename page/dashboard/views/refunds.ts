/// <reference lib="dom" />
// The Refunds page: the merchant's refunds in this mode, newest first, narrowed by status or session.
import { h, replaceChildren } from '../../src/dom';
import { api } from '../api';
import { field, form, input, showError, text } from '../forms';
import type { Mode, RefundRow, View } from '../types';
import { refundTable } from './refundTable';

const STATUSES = ['pending_claim', 'claimed', 'submitted', 'completed', 'failed', 'expired', 'cancelled'];

export function refundsView(mode: Mode): View {
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const filters = form({
    label: 'Filter refunds',
    submit: 'Apply filters',
    fields: [
      h(
        'div',
        { class: 'filters' },
        field(
          'Status',
          h(
            'select',
            { name: 'status' },
            h('option', { value: '' }, 'Any'),
            ...STATUSES.map((s) => h('option', { value: s }, s.replace('_', ' '))),
          ),
        ),
        field('Session', input({ name: 'session_id', type: 'search', placeholder: 'cs_…' })),
      ),
    ],
    onSubmit: (data) => load(data),
  });

  async function load(data: FormData): Promise<void> {
    const params = new URLSearchParams();
    for (const name of ['status', 'session_id']) if (text(data, name)) params.set(name, text(data, name));
    const refunds = await api<RefundRow[]>('GET', `/${mode}/refunds?${params.toString()}`);
    replaceChildren(
      results,
      refunds.length === 0
        ? h('p', {}, 'No refunds match these filters.')
        : refundTable(refunds, mode, { caption: 'Refunds, newest first', session: true }),
    );
  }

  const element = h(
    'div',
    {},
    h('h1', {}, 'Refunds'),
    h(
      'p',
      { class: 'hint' },
      'Money returned to customers: refunds you made from a session, and those the service owes by itself (an overpayment, a payment that came late or in another token). The customer chooses where to receive it.',
    ),
    h('section', { class: 'card' }, filters),
    results,
  );
  load(new FormData(filters)).catch((error: unknown) => showError(results, error));
  return { name: 'refunds', title: 'Refunds', element };
}
