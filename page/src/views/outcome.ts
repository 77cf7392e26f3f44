/// <reference lib="dom" />
// Where a checkout ends, and the states in which the page cannot show a checkout at all. Each says what
// happened and what the customer can do; none shows internals.
import type { HostedCheckoutSession } from '../../../domain/wire/hostedCheckout';
import { h } from '../dom';
import { trimTokenAmount } from '../format';

export type Problem = 'missing-token' | 'invalid-token' | 'unknown-session' | 'unavailable';

const PROBLEMS: Record<Problem, [string, string]> = {
  'missing-token': ['This payment link is incomplete', 'Open the full link the merchant gave you, or ask the merchant for a new one.'],
  'invalid-token': [
    'This payment link is no longer valid',
    'The link has expired or is not valid. Ask the merchant for a new payment link.',
  ],
  'unknown-session': ['Checkout not found', 'This link does not lead to a checkout. Ask the merchant for a new payment link.'],
  unavailable: ['Checkout unavailable', 'The checkout could not be loaded right now. Reload the page in a moment.'],
};

export function renderProblem(problem: Problem): HTMLElement {
  const [title, text] = PROBLEMS[problem];
  return h(
    'section',
    { class: 'step outcome outcome-problem', 'aria-labelledby': 'outcome-heading' },
    h('h2', { id: 'outcome-heading' }, title),
    h('p', {}, text),
  );
}

export function renderOutcome(session: HostedCheckoutSession): HTMLElement {
  const p = session.payment;
  const received = p ? `${trimTokenAmount(p.amount_received)} ${p.token}` : undefined;
  const [tone, title, text]: [string, string, string] = (() => {
    switch (session.status) {
      case 'completed':
        return [
          'good',
          'Payment complete',
          received
            ? `We received ${received}. Thank you — you can close this page.`
            : 'Your payment was received. Thank you — you can close this page.',
        ];
      case 'overpaid':
        return [
          'good',
          'Payment received',
          p
            ? `We received ${received}, more than the ${trimTokenAmount(p.amount)} ${p.token} due. The merchant will contact you about the difference.`
            : 'We received more than the amount due. The merchant will contact you about the difference.',
        ];
      case 'underpaid':
        return [
          'warn',
          'Payment incomplete',
          p
            ? `We received ${received} of ${trimTokenAmount(p.amount)} ${p.token}; ${trimTokenAmount(p.amount_due)} ${p.token} was still due when this checkout closed. Contact the merchant.`
            : 'Less than the amount due was received. Contact the merchant.',
        ];
      case 'expired':
        return [
          'bad',
          'This checkout has expired',
          'No payment was completed in time. If you sent funds after it expired, contact the merchant for a refund.',
        ];
      case 'failed':
        return [
          'bad',
          'Payment failed',
          'The payment could not be completed. Contact the merchant; if funds were sent, they will arrange a refund.',
        ];
      case 'cancelled':
        return ['bad', 'This checkout was cancelled', 'The merchant cancelled this checkout. No payment is expected.'];
      case 'confirming':
        return [
          'warn',
          'Time is up',
          'A payment was still being confirmed when this checkout closed. The merchant is notified of its outcome.',
        ];
      default:
        return ['bad', 'This checkout has expired', 'No payment was completed in time. Ask the merchant for a new payment link.'];
    }
  })();
  return h(
    'section',
    { class: `step outcome outcome-${tone}`, 'aria-labelledby': 'outcome-heading' },
    h('h2', { id: 'outcome-heading' }, title),
    h('p', {}, text),
  );
}
