/// <reference lib="dom" />
// Refunds as a table, on the Refunds page and a session's detail: status, source, amount, session, created,
// destination, and the transaction that paid it with its block explorer link. Each row is the target of
// `#refund-<ref_id>`, which a session's deposits link to.
import { h } from '../../src/dom';
import { link } from '../navigation';
import type { Mode, RefundRow } from '../types';

/** The refund's row, as a fragment a link can name. */
export const refundAnchor = (refundId: string) => `refund-${refundId}`;

/** USD to the micro-unit, shown with cents and only the digits beyond them that are not zero. */
export const usdText = (amount: string) => amount.replace(/(\.\d\d\d*?)0+$/, '$1');

const SOURCE_WORDS: Record<string, string> = {
  merchant: 'refund by you',
  overpayment: 'overpayment',
  late_deposit: 'late payment',
  wrong_token: 'wrong token',
  wrong_chain: 'wrong chain',
  dust: 'amount below the minimum',
  underpaid_expired: 'underpaid and expired',
  settlement_failed: 'settlement failed',
};

export function refundTable(refunds: RefundRow[], mode: Mode, options: { caption: string; session: boolean }): HTMLElement {
  const headings = [
    'Refund',
    'Status',
    'Source',
    'Amount (USD)',
    ...(options.session ? ['Session'] : []),
    'Created',
    'Destination',
    'Transaction',
  ];
  return h(
    'table',
    { class: 'refunds' },
    h('caption', { class: 'visually-hidden' }, options.caption),
    h('thead', {}, h('tr', {}, ...headings.map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      ...refunds.map((r) =>
        h(
          'tr',
          { id: refundAnchor(r.refund_id), class: 'refund', 'data-refund-id': r.refund_id, tabindex: '-1' },
          h('td', {}, h('code', {}, r.refund_id)),
          h(
            'td',
            {},
            h('span', { class: `status status-${r.status}` }, r.status.replace('_', ' ')),
            r.status_reason && h('span', { class: 'hint' }, ` ${r.status_reason}`),
          ),
          h('td', {}, SOURCE_WORDS[r.source] ?? r.source, r.reason && h('span', { class: 'hint' }, `: ${r.reason}`)),
          h('td', { class: 'number' }, usdText(r.amount_usd)),
          options.session && h('td', {}, link(`/dashboard/${mode}/sessions/${r.session_id}`, r.session_id)),
          h('td', {}, r.created_at),
          h(
            'td',
            {},
            r.destination
              ? h('span', {}, h('code', {}, r.destination.address), ` ${r.destination.token} on ${r.destination.chain}`)
              : 'Not claimed yet',
          ),
          h(
            'td',
            {},
            r.transaction_hash && r.explorer_url
              ? h('a', { href: r.explorer_url, target: '_blank', rel: 'noopener noreferrer' }, h('code', {}, r.transaction_hash))
              : '–',
          ),
        ),
      ),
    ),
  );
}
