/// <reference lib="dom" />
// What is being paid and for how much longer: the USD amount, the merchant's own currency when given,
// and a countdown to expiry (a timer, which screen readers do not announce on every tick).
import type { HostedCheckoutSession } from '../../../domain/wire/hostedCheckout';
import { h } from '../dom';
import { countdown, countdownSpoken, formatMoney } from '../format';

export interface SummaryView {
  element: HTMLElement;
  /** Redraws the countdown; returns the milliseconds left. */
  tick(now: number): number;
  setExpiry(expiresAt: string): void;
}

export function renderSummary(session: HostedCheckoutSession): SummaryView {
  let expiresAt = Date.parse(session.expires_at);
  const timer = h('span', { role: 'timer', 'aria-live': 'off', class: 'countdown' });
  const spoken = h('span', { class: 'visually-hidden' });
  const expiry = h('p', { class: 'expiry' }, 'Time left to pay: ', h('span', { 'aria-hidden': 'true' }, timer), spoken);
  const element = h(
    'section',
    { class: 'summary', 'aria-labelledby': 'summary-heading' },
    h(
      'h1',
      { id: 'summary-heading' },
      h('span', { class: 'summary-label' }, 'Amount to pay'),
      h('span', { class: 'amount' }, formatMoney(session.amount_usd, 'USD')),
    ),
    session.merchant_currency && session.merchant_amount !== undefined
      ? h('p', { class: 'merchant-amount' }, `Order total ${formatMoney(session.merchant_amount, session.merchant_currency)}`)
      : null,
    expiry,
  );
  const tick = (now: number) => {
    const left = expiresAt - now;
    timer.textContent = countdown(left);
    // The hidden text changes once a minute, so a screen reader reading the page hears the time left.
    const minuteText = countdownSpoken(Math.ceil(left / 60_000) * 60_000);
    if (spoken.textContent !== minuteText) spoken.textContent = minuteText;
    return left;
  };
  tick(Date.now());
  return { element, tick, setExpiry: (value) => void (expiresAt = Date.parse(value)) };
}
