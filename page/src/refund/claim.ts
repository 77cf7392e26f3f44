/// <reference lib="dom" />
// The claim page's controller: loads the refund, shows the claim form while it waits for a claim, and afterwards its
// status, polling while the money is on its way. Every value from the API goes into the page as text (../dom.ts).
import type { RefundClaimState } from '../../../domain/wire/refund';
import { focusHeading, h, replaceChildren } from '../dom';
import { chainName, formatMoney } from '../format';
import { createClaimApi, ClaimFailure, type ClaimApi } from './api';
import { renderClaimForm } from './form';

// As the checkout page's, under the same per-session rate limit: a Solana refund lands within seconds of its claim.
const POLL_MS = 2000;
const MOVING = new Set(['claimed', 'submitted']);

export function startClaim(root: HTMLElement, token: string): void {
  const api = createClaimApi(token);
  let shown = '';
  const show = (step: string, ...content: HTMLElement[]) => {
    root.dataset.step = step;
    replaceChildren(root, ...content);
    if (step !== shown) focusHeading(root);
    shown = step;
  };

  const render = (state: RefundClaimState) => {
    if (state.status === 'pending_claim') {
      show('claim', summary(state), renderClaimForm(state, api, render));
      return;
    }
    show(`status:${state.status}`, summary(state), statusView(state));
    if (MOVING.has(state.status)) window.setTimeout(() => void load(api, render, problem), POLL_MS);
  };
  const problem = (failure: unknown) => {
    const notFound = failure instanceof ClaimFailure && failure.status === 404;
    show(
      'problem',
      h(
        'section',
        { class: 'step outcome outcome-problem', 'aria-labelledby': 'outcome-heading' },
        h('h2', { id: 'outcome-heading' }, notFound ? 'Refund not found' : 'Refund unavailable'),
        h(
          'p',
          {},
          notFound
            ? 'This link does not lead to a refund. Open the full link you were sent, or contact the merchant.'
            : failure instanceof Error
              ? failure.message
              : 'The refund could not be loaded. Reload the page in a moment.',
        ),
      ),
    );
  };
  void load(api, render, problem);
}

async function load(api: ClaimApi, render: (state: RefundClaimState) => void, problem: (failure: unknown) => void): Promise<void> {
  try {
    render(await api.state());
  } catch (failure) {
    problem(failure);
  }
}

function summary(state: RefundClaimState): HTMLElement {
  return h(
    'section',
    { class: 'summary', 'aria-labelledby': 'summary-heading' },
    h(
      'h1',
      { id: 'summary-heading' },
      h('span', { class: 'summary-label' }, state.status === 'pending_claim' ? 'Refund owed to you' : 'Your refund'),
      h('span', { class: 'amount' }, formatMoney(state.amount_usd, 'USD')),
    ),
    h('p', { class: 'muted' }, `Your payment arrived as ${state.token} on ${chainName(state.chain)}.`),
    state.status === 'pending_claim'
      ? h(
          'p',
          { class: 'expiry' },
          `Claim it by ${new Date(state.expires_at).toLocaleString('en', { dateStyle: 'long', timeStyle: 'short' })}.`,
        )
      : null,
  );
}

const TITLES: Record<string, [tone: string, title: string, text: string]> = {
  claimed: ['good', 'Refund claimed', 'Your refund is on its way to the address below; this page follows it.'],
  submitted: ['good', 'Refund sent', 'The transaction is on its way; it confirms within a minute or two.'],
  completed: ['good', 'Refund complete', 'The money has arrived at the address below.'],
  failed: ['bad', 'Refund failed', 'The refund could not be sent. Contact the merchant.'],
  expired: ['bad', 'This refund has expired', 'It was not claimed in time. Contact the merchant.'],
  cancelled: ['bad', 'This refund was cancelled', 'The merchant withdrew this refund. Contact the merchant with any question.'],
};

function statusView(state: RefundClaimState): HTMLElement {
  const [tone, title, text] = TITLES[state.status] ?? ['bad', state.status, ''];
  const d = state.destination;
  return h(
    'section',
    { class: `step outcome outcome-${tone}`, 'aria-labelledby': 'outcome-heading' },
    h('p', { class: 'status' }, h('span', { class: `badge badge-${state.status}` }, state.status.replace('_', ' '))),
    h('h2', { id: 'outcome-heading' }, title),
    h('p', {}, text),
    d
      ? h(
          'dl',
          { class: 'fields' },
          h(
            'div',
            { class: 'field' },
            h('dt', {}, `Destination (${d.token} on ${chainName(d.chain)})`),
            h('dd', {}, h('code', { class: 'value', id: 'destination' }, d.address)),
          ),
          state.transaction_hash
            ? h(
                'div',
                { class: 'field' },
                h('dt', {}, 'Transaction'),
                h(
                  'dd',
                  {},
                  state.explorer_url
                    ? h(
                        'a',
                        { href: state.explorer_url, rel: 'noopener noreferrer', target: '_blank', id: 'transaction', class: 'value' },
                        state.transaction_hash,
                      )
                    : h('code', { class: 'value', id: 'transaction' }, state.transaction_hash),
                ),
              )
            : null,
        )
      : null,
  );
}
