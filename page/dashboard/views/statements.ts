/// <reference lib="dom" />
// The Statements page: the merchant's statement of one calendar month (UTC) in this mode, line by line in USDC, and its
// CSV download (docs/dashboard.md#statements).
import { h, replaceChildren } from '../../src/dom';
import { api } from '../api';
import { field, form, input, showError, text } from '../forms';
import type { Mode, View } from '../types';

interface Statement {
  month: string;
  lines: { line: string; amount_usdc: string }[];
}

const LABELS: Record<string, string> = {
  held_at_start: 'Held at the start of the month',
  received: 'Received from your customers',
  fees: 'Fees',
  netted_for_refunds: 'Netted from payouts for refunds',
  paid_out: 'Paid out to your wallet',
  other: 'Other adjustments',
  held_at_end: 'Held at the end of the month',
  refunds_charged: 'Refunds charged to you',
};

export function statementsView(mode: Mode): View {
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const download = h('a', { class: 'export', download: true }, 'Download CSV');
  const thisMonth = new Date().toISOString().slice(0, 7);
  const picker = form({
    label: 'Choose a month',
    submit: 'Show statement',
    fields: [field('Month (UTC)', input({ name: 'month', type: 'month', value: thisMonth, required: true }))],
    onSubmit: (data) => load(text(data, 'month')),
  });

  async function load(month: string): Promise<void> {
    download.setAttribute('href', `/dashboard/api/${mode}/statements/${month}.csv`);
    const statement = await api<Statement>('GET', `/${mode}/statements/${month}`);
    replaceChildren(
      results,
      h(
        'table',
        {},
        h('caption', {}, `Statement for ${statement.month}, in USDC`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Amount (USDC)'))),
        h(
          'tbody',
          {},
          ...statement.lines.map((l) =>
            h('tr', { 'data-line': l.line }, h('th', { scope: 'row' }, LABELS[l.line] ?? l.line), h('td', {}, l.amount_usdc)),
          ),
        ),
      ),
      download,
    );
  }

  const element = h(
    'div',
    {},
    h('h1', {}, 'Statements'),
    h(
      'p',
      { class: 'hint' },
      'What your payments received, what was paid out to your wallet, the fees, refunds and netting, and what was held for you, month by month.',
    ),
    h('section', { class: 'card' }, picker),
    results,
  );
  load(thisMonth).catch((error: unknown) => showError(results, error));
  return { name: 'statements', title: 'Statements', element };
}
