/// <reference lib="dom" />
// A deposit on its way: the confirmations counted so far against the network's requirement. The bar is
// updated in place on every poll; only the status line (aria-live) announces, so nothing chatters.
import type { HostedCheckoutSession } from '../../../domain/wire/hostedCheckout';
import { h } from '../dom';
import { approxDuration, chainName, trimTokenAmount } from '../format';

export interface ProgressView {
  element: HTMLElement;
  update(session: HostedCheckoutSession): void;
}

export function renderProgress(session: HostedCheckoutSession): ProgressView {
  const bar = h('progress', { id: 'confirmations', max: 1, value: 0 });
  const label = h('p', { class: 'progress-label' });
  const payment = session.payment;
  const element = h(
    'section',
    { class: 'step', 'aria-labelledby': 'progress-heading' },
    h('h2', { id: 'progress-heading' }, 'Payment detected'),
    h(
      'p',
      {},
      payment
        ? `Your ${payment.token} transfer on ${chainName(payment.chain)} is being confirmed by the network.`
        : 'Your transfer is being confirmed by the network.',
    ),
    h('label', { for: 'confirmations', class: 'progress-title' }, 'Confirmations'),
    bar,
    label,
    payment
      ? h(
          'p',
          { class: 'muted' },
          `This takes ${approxDuration(payment.estimated_finality_seconds)} on ${chainName(payment.chain)}. You can keep this page open or close it; the merchant is notified either way.`,
        )
      : null,
  );
  const update = (s: HostedCheckoutSession) => {
    const required = s.deposit?.confirmations_required ?? s.payment?.confirmations_required ?? 1;
    const done = Math.min(s.deposit?.confirmations ?? 0, required);
    bar.max = required;
    bar.value = done;
    bar.setAttribute('aria-valuetext', `${done} of ${required} confirmations`);
    label.textContent = `${done} of ${required} confirmations`;
    if (s.payment && s.payment.amount_received !== '0.000000')
      label.textContent += ` · ${trimTokenAmount(s.payment.amount_received)} ${s.payment.token} confirmed so far`;
  };
  update(session);
  return { element, update };
}
