/// <reference lib="dom" />
// One session: summary with what is owed back to the customer, timeline with reasons, deposits with block explorer links
// and each one's verdict (credited, or owed back and why, linked to the refund that returns it), the unmatched deposits
// with a Credit to this session button where the session may take one, its refunds and a Refund button, bank transfers,
// settlement, and every webhook delivery with its attempts and a Redeliver button (the list refreshes while a
// redelivery runs).
import { h, replaceChildren, type Child } from '../../src/dom';
import { api } from '../api';
import { link } from '../navigation';
import { field, form, input, showError, text } from '../forms';
import type { Mode, RefundRow, View } from '../types';
import { refundAnchor, refundTable } from './refundTable';

interface Attempt {
  attempt: number;
  started_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

interface Delivery {
  delivery_id: string;
  event: string;
  url: string;
  state: string;
  attempts: Attempt[];
}

interface Detail {
  session: {
    session_id: string;
    transaction_id: string;
    status: string;
    amount_usd: number;
    created_at: string;
    expires_at: string;
    metadata: Record<string, string>;
  };
  payment: { token: string; chain: string; deposit_address: string; amount: string } | null;
  /** Why the session is in its status now (the last change's reason, or a note since, e.g. awaiting settlement liquidity). */
  status_reason: string;
  timeline: { from: string | null; to: string; at: string; reason: string }[];
  deposits: {
    chain: string;
    tx_hash: string;
    explorer_url: string;
    token: string;
    amount: string;
    stage: string;
    confirmations: number;
    block_number: string;
    /** Credited to the payment, or owed back to the customer and why, in words. */
    verdict: string;
    /** Whether the verdict owes the customer all of the deposit or its excess. */
    owes_customer: boolean;
    /** What the ledger owes back to the customer from this deposit, in the token's units; null while it owes nothing. */
    owed_back: string | null;
    /** The refund that returns what it owes the customer, once one exists. */
    refund_id: string | null;
  }[];
  /** Deposits in another token or chain, with their refund, and whether the merchant may credit them instead. */
  unmatched_deposits: UnmatchedDeposit[];
  /** Oldest first. */
  refunds: RefundRow[];
  /** What the ledger owes back to the customer from the session's deposits, per token and chain. */
  owed_back: { token: string; chain: string; amount: string }[];
  bank_receipts: { reference: string; amount_usd: number; received_by: string; credited: boolean; recorded_at: string }[];
  /**
   * `netted_usdc`: the part of the gross that repaid what the merchant owed for refunds, only when some did; `fee_usdc`:
   * the operator's fee kept of it, only when there was one.
   */
  settlement: {
    provider: string;
    reference: string;
    amount_usdc: string;
    netted_usdc?: string;
    fee_usdc?: string;
    chain: string;
    settled_at: string;
  } | null;
  webhook_deliveries: Delivery[];
}

interface UnmatchedDeposit {
  chain: string;
  tx_hash: string;
  log_index: number;
  token: string;
  credited: boolean;
  refund: { refund_id: string; status: string; source: string };
  creditable: boolean;
  /** Why it cannot be credited; null when it can. */
  credit_refusal: string | null;
}

const REFRESHES_AFTER_REDELIVERY = 15;

/** Statuses in which the customer paid, so the merchant may give money back. */
const REFUNDABLE_STATUSES = new Set(['completed', 'overpaid', 'underpaid']);

const pair = (label: string, value: Child) => h('div', { class: 'pair' }, h('dt', {}, label), h('dd', {}, value));

export function sessionDetailView(mode: Mode, sessionId: string): View {
  const body = h('div', {}, h('p', {}, 'Loading…'));
  const deliveriesArea = h('div', { 'aria-live': 'polite' });

  async function loadDeliveries(): Promise<Detail> {
    const detail = await api<Detail>('GET', `/${mode}/sessions/${sessionId}`);
    replaceChildren(deliveriesArea, deliveries(detail.webhook_deliveries));
    return detail;
  }

  function refreshFor(times: number): void {
    if (times === 0) return;
    window.setTimeout(() => void loadDeliveries().then(() => refreshFor(times - 1)), 2000);
  }

  function deliveries(list: Delivery[]): HTMLElement {
    if (list.length === 0) return h('p', {}, 'No webhook was sent for this session.');
    return h('div', {}, ...list.map((d) => delivery(d)));
  }

  function delivery(d: Delivery): HTMLElement {
    const note = h('p', { role: 'status' });
    const redeliver = h('button', { type: 'button', 'aria-label': `Redeliver ${d.event} (${d.delivery_id})` }, 'Redeliver');
    redeliver.addEventListener('click', () => {
      redeliver.disabled = true;
      api('POST', `/${mode}/webhook-deliveries/${d.delivery_id}/redeliver`).then(
        () => {
          note.textContent = 'Redelivery started; new attempts appear below.';
          refreshFor(REFRESHES_AFTER_REDELIVERY);
        },
        (error: unknown) => showError(note, error),
      );
    });
    return h(
      'article',
      { class: 'delivery', 'data-delivery-id': d.delivery_id },
      h('h3', {}, `${d.event} · ${d.state}`),
      h('p', {}, h('code', {}, d.delivery_id), ' to ', h('code', {}, d.url)),
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, `Attempts of ${d.delivery_id}`),
        h('thead', {}, h('tr', {}, ...['Attempt', 'Started', 'Status', 'Latency', 'Error'].map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          ...d.attempts.map((a) =>
            h(
              'tr',
              { class: 'attempt' },
              h('td', {}, String(a.attempt)),
              h('td', {}, a.started_at),
              h('td', {}, a.status_code === null ? '–' : String(a.status_code)),
              h('td', {}, `${a.latency_ms} ms`),
              h('td', {}, a.error ?? ''),
            ),
          ),
        ),
      ),
      redeliver,
      note,
    );
  }

  /** Moves to the refund's row in this page's Refunds section, without leaving the page. */
  function refundLink(refundId: string): HTMLAnchorElement {
    const a = h('a', { href: `#${refundAnchor(refundId)}` }, h('code', {}, refundId));
    a.addEventListener('click', (event) => {
      event.preventDefault();
      const row = document.getElementById(refundAnchor(refundId));
      row?.scrollIntoView({ block: 'center' });
      row?.focus();
    });
    return a;
  }

  function refundForm(): HTMLElement {
    const open = h('button', { type: 'button', 'aria-expanded': 'false' }, 'Refund');
    // One per refund the form makes: a submit retried after a lost answer finds the refund the first one made.
    let idempotencyKey = crypto.randomUUID();
    const refund = form({
      label: 'Refund the customer',
      submit: 'Create refund',
      fields: [
        field(
          'Amount (USD)',
          input({ name: 'amount_usd', type: 'number', min: '0.01', step: '0.01', required: true, inputmode: 'decimal' }),
          'At most what the customer paid, less what was already refunded',
        ),
        field('Reason', input({ name: 'reason', maxlength: '500' }), 'Optional: why, kept with the refund'),
      ],
      async onSubmit(data) {
        const reason = text(data, 'reason');
        const made = await api<RefundRow>('POST', `/${mode}/sessions/${sessionId}/refunds`, {
          amount_usd: Number(text(data, 'amount_usd')),
          ...(reason ? { reason } : {}),
          idempotency_key: idempotencyKey,
        });
        idempotencyKey = crypto.randomUUID();
        render(await api<Detail>('GET', `/${mode}/sessions/${sessionId}`));
        document.getElementById(refundAnchor(made.refund_id))?.focus();
      },
    });
    refund.hidden = true;
    open.addEventListener('click', () => {
      refund.hidden = !refund.hidden;
      open.setAttribute('aria-expanded', String(!refund.hidden));
      if (!refund.hidden) refund.querySelector<HTMLInputElement>('input')?.focus();
    });
    return h('div', { class: 'refund-action' }, open, refund);
  }

  /** One unmatched deposit: its refund, and the Credit to this session button when the session may take it. */
  function unmatchedDeposit(d: UnmatchedDeposit): HTMLElement {
    const note = h('div', { role: 'alert' });
    let action: Child = h('span', { class: 'hint' }, d.credited ? 'Credited to this session' : (d.credit_refusal ?? ''));
    if (d.creditable) {
      const credit = h('button', { type: 'button' }, 'Credit to this session');
      credit.addEventListener('click', () => {
        credit.disabled = true;
        api<Detail>('POST', `/${mode}/sessions/${sessionId}/deposit-credits`, {
          chain: d.chain,
          tx_hash: d.tx_hash,
          log_index: d.log_index,
        }).then(render, (error: unknown) => {
          credit.disabled = false;
          showError(note, error);
        });
      });
      action = credit;
    }
    return h(
      'li',
      { class: 'unmatched-deposit', 'data-tx-hash': d.tx_hash },
      `${d.token} on ${d.chain}, `,
      h('code', {}, d.tx_hash),
      ': refund ',
      refundLink(d.refund.refund_id),
      ` (${d.refund.source}, ${d.refund.status}) `,
      action,
      note,
    );
  }

  function render(detail: Detail): void {
    const s = detail.session;
    replaceChildren(
      body,
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'summary-h' },
        h('h2', { id: 'summary-h' }, 'Summary'),
        h(
          'dl',
          { class: 'pairs' },
          pair(
            'Status',
            h(
              'span',
              {},
              h('span', { class: `status status-${s.status}` }, s.status),
              ' ',
              h('span', { class: 'hint' }, detail.status_reason),
            ),
          ),
          pair('Transaction id', s.transaction_id),
          pair('Amount', `${s.amount_usd.toFixed(2)} USD`),
          detail.payment &&
            pair(
              'Payment',
              `${detail.payment.amount} ${detail.payment.token} on ${detail.payment.chain} to ${detail.payment.deposit_address}`,
            ),
          detail.owed_back.length > 0 &&
            pair(
              'Owed back to the customer',
              h(
                'span',
                { class: 'owed', 'data-owed-back': '' },
                detail.owed_back.map((o) => `${o.amount} ${o.token} on ${o.chain}`).join(', '),
              ),
            ),
          pair('Created', s.created_at),
          pair('Expires', s.expires_at),
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'timeline-h' },
        h('h2', { id: 'timeline-h' }, 'Timeline'),
        h(
          'ol',
          { class: 'timeline' },
          ...detail.timeline.map((t) =>
            h('li', {}, h('strong', {}, t.to), ` at ${t.at}`, h('br', {}), h('span', { class: 'hint' }, t.reason)),
          ),
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'deposits-h' },
        h('h2', { id: 'deposits-h' }, 'Deposits'),
        detail.deposits.length === 0
          ? h('p', {}, 'No deposit seen.')
          : h(
              'table',
              {},
              h('caption', { class: 'visually-hidden' }, 'Deposits and their verdicts'),
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ...['Amount', 'Chain', 'Status', 'Transaction', 'Verdict', 'Owed back', 'Refund'].map((t) =>
                    h('th', { scope: 'col' }, t),
                  ),
                ),
              ),
              h(
                'tbody',
                {},
                ...detail.deposits.map((d) =>
                  h(
                    'tr',
                    { class: 'deposit', 'data-tx-hash': d.tx_hash },
                    h('td', { class: 'number' }, `${d.amount} ${d.token}`),
                    h('td', {}, d.chain),
                    h('td', {}, `${d.stage}, ${d.confirmations} confirmations, block ${d.block_number}`),
                    h('td', {}, h('a', { href: d.explorer_url, target: '_blank', rel: 'noopener noreferrer' }, h('code', {}, d.tx_hash))),
                    h('td', { class: d.owes_customer ? 'verdict owed' : 'verdict' }, d.verdict),
                    h('td', { class: 'number' }, d.owed_back === null ? '–' : `${d.owed_back} ${d.token}`),
                    h('td', {}, d.refund_id ? refundLink(d.refund_id) : '–'),
                  ),
                ),
              ),
            ),
      ),
      detail.unmatched_deposits.length > 0 &&
        h(
          'section',
          { class: 'card', 'aria-labelledby': 'unmatched-h' },
          h('h2', { id: 'unmatched-h' }, 'Unmatched deposits'),
          h(
            'p',
            { class: 'hint' },
            'Sent in another token or chain than the one chosen: refunded to the customer, or credited to this session while it is open and accepts that token.',
          ),
          h('ul', {}, ...detail.unmatched_deposits.map(unmatchedDeposit)),
        ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'refunds-h' },
        h('h2', { id: 'refunds-h' }, 'Refunds'),
        detail.refunds.length === 0
          ? h('p', {}, 'No refund of this session.')
          : refundTable(detail.refunds, mode, { caption: 'Refunds of this session, oldest first', session: false }),
        REFUNDABLE_STATUSES.has(s.status) && refundForm(),
      ),
      detail.bank_receipts.length > 0 &&
        h(
          'section',
          { class: 'card', 'aria-labelledby': 'bank-h' },
          h('h2', { id: 'bank-h' }, 'Bank transfers'),
          h(
            'ul',
            {},
            ...detail.bank_receipts.map((r) =>
              h(
                'li',
                {},
                `${r.amount_usd.toFixed(2)} USD, reference `,
                h('code', {}, r.reference),
                `, marked by ${r.received_by} at ${r.recorded_at}: ${r.credited ? 'credited' : 'refund due (not credited)'}`,
              ),
            ),
          ),
        ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'settlement-h' },
        h('h2', { id: 'settlement-h' }, 'Settlement'),
        detail.settlement
          ? h(
              'dl',
              { class: 'pairs' },
              pair('Amount', `${detail.settlement.amount_usdc} USDC on ${detail.settlement.chain}`),
              ...(detail.settlement.netted_usdc
                ? [pair('Netted', `${detail.settlement.netted_usdc} USDC repaid what the merchant owed for refunds; the rest was sent`)]
                : []),
              ...(detail.settlement.fee_usdc ? [pair('Fee', `${detail.settlement.fee_usdc} USDC kept by the operator of the amount`)] : []),
              pair('Reference', h('code', {}, detail.settlement.reference)),
              pair('Provider', detail.settlement.provider),
              pair('Settled', detail.settlement.settled_at),
            )
          : h('p', {}, 'Not settled.'),
      ),
      h('section', { class: 'card', 'aria-labelledby': 'webhooks-h' }, h('h2', { id: 'webhooks-h' }, 'Webhook deliveries'), deliveriesArea),
    );
    replaceChildren(deliveriesArea, deliveries(detail.webhook_deliveries));
  }

  const element = h(
    'div',
    {},
    h('p', {}, link(`/dashboard/${mode}/sessions`, '← All sessions')),
    h('h1', {}, `Session ${sessionId}`),
    body,
  );
  api<Detail>('GET', `/${mode}/sessions/${sessionId}`).then(render, (error: unknown) => showError(body, error));
  return { name: 'session', title: `Session ${sessionId}`, element };
}
