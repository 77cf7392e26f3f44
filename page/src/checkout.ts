/// <reference lib="dom" />
// The page's controller: loads the session with the token, shows the step its status calls for, polls
// every 2 s so the page follows the payment without reloading, and stops once the checkout is over.
import type { HostedCheckoutSession } from '../../domain/wire/hostedCheckout';
import type { PaymentInstructions } from '../../domain/wire/payment';
import { ApiFailure, type Api } from './api';
import { focusHeading, h, replaceChildren } from './dom';
import { FINAL_STATUSES, statusLabel, statusSentence } from './status';
import { renderBank } from './views/bank';
import { renderChoose, type Choice } from './views/choose';
import { renderOutcome, renderProblem, type Problem } from './views/outcome';
import { renderPay } from './views/pay';
import { renderProgress, type ProgressView } from './views/progress';
import { renderSummary, type SummaryView } from './views/summary';

const POLL_MS = 2000;

export function startCheckout(root: HTMLElement, sessionId: string, api: Api): void {
  let session: HostedCheckoutSession | undefined;
  let method: 'crypto' | 'bank' = 'crypto';
  let choosing = false;
  let stepKey = '';
  let stopped = false;
  // Focus follows a step change the customer caused; changes the poll brings are announced by the status
  // line instead, so focus never jumps away from someone reading or copying.
  let focusOnChange = false;
  let summary: SummaryView | undefined;
  let progress: ProgressView | undefined;
  let pollTimer: number | undefined;
  let tickTimer: number | undefined;

  const badge = h('span', { class: 'badge' });
  const sentence = h('span', { class: 'status-text' });
  const statusLine = h(
    'p',
    { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' },
    badge,
    sentence,
  );
  const connection = h('p', { class: 'notice notice-warn', role: 'alert', hidden: true });
  const stepHost = h('div', { class: 'step-host' });

  const stop = () => {
    stopped = true;
    window.clearTimeout(pollTimer);
    window.clearInterval(tickTimer);
  };

  function showProblem(problem: Problem): void {
    stop();
    root.dataset.step = `problem:${problem}`;
    replaceChildren(root, renderProblem(problem));
    focusHeading(root);
  }

  async function refresh(): Promise<void> {
    let next: HostedCheckoutSession;
    try {
      next = await api.get<HostedCheckoutSession>('/checkout/sessions/current');
    } catch (failure) {
      if (!(failure instanceof ApiFailure)) throw failure;
      if (failure.status === 401 || failure.status === 403) {
        // The token lives exactly as long as the session: once expires_at has passed, a 401 means "over".
        if (session && Date.parse(session.expires_at) <= Date.now()) return closeAtExpiry(session);
        return showProblem('invalid-token');
      }
      if (!session) return showProblem(failure.status === 404 ? 'unknown-session' : 'unavailable');
      connection.textContent = failure.status === 0 ? failure.message : 'The checkout could not be refreshed; we keep trying.';
      connection.hidden = false;
      return;
    }
    connection.hidden = true;
    // A token of another session than the one in the address: this link is not that checkout.
    if (next.session_id !== sessionId) return showProblem('unknown-session');
    session = next;
    render();
  }

  function closeAtExpiry(last: HostedCheckoutSession): void {
    session = { ...last, status: last.status === 'pending' || last.status === 'awaiting_payment' ? 'expired' : last.status };
    render(true);
  }

  function render(closed = false): void {
    if (!session) return;
    const s = session;
    if (!summary) {
      summary = renderSummary(s);
      replaceChildren(root, summary.element, statusLine, connection, stepHost);
      tickTimer = window.setInterval(() => {
        // At zero, ask once more: the answer (or the 401 of an expired token) ends the checkout on screen.
        if (summary && summary.tick(Date.now()) <= 0 && !stopped) {
          window.clearInterval(tickTimer);
          void refresh();
        }
      }, 1000);
    }
    summary.setExpiry(s.expires_at);
    summary.tick(Date.now());

    const over = closed || FINAL_STATUSES.includes(s.status);
    const [key, build] = stepFor(s, over);
    if (key !== stepKey) {
      stepKey = key;
      progress = undefined;
      replaceChildren(stepHost, build());
      root.dataset.step = key.split(':')[0];
      if (focusOnChange) focusHeading(stepHost);
    }
    progress?.update(s);
    root.dataset.status = s.status;
    badge.className = `badge badge-${s.status}`;
    badge.textContent = over && !FINAL_STATUSES.includes(s.status) ? 'Closed' : statusLabel(s.status, method);
    const text = ` ${statusSentence(s, method)}`;
    if (sentence.textContent !== text) sentence.textContent = text;
    if (over) stop();
  }

  function stepFor(s: HostedCheckoutSession, over: boolean): [string, () => HTMLElement] {
    const payment = s.payment;
    if (over) return [`outcome:${s.status}`, () => renderOutcome(s)];
    if (s.status === 'confirming') {
      return [
        'progress',
        () => {
          progress = renderProgress(s);
          return progress.element;
        },
      ];
    }
    if (s.status === 'underpaid' && payment)
      return [`pay:${payment.payment_id}:${payment.amount_due}`, () => renderPay({ session: s, payment })];
    if (method === 'bank') return ['bank', () => renderBank({ api, onBack: s.supported_methods.crypto ? backToChoice : undefined })];
    if (payment && !choosing) {
      return [
        `pay:${payment.token}:${payment.chain}:${payment.amount}`,
        () => renderPay({ session: s, payment, onChangeChoice: backToChoice }),
      ];
    }
    return ['choose', () => renderChoose({ session: s, initial: payment ?? undefined, onChoose: choose })];
  }

  /** Runs a step change the customer asked for; every render it causes (a poll's included) moves focus. */
  async function byCustomer(action: () => Promise<void> | void): Promise<void> {
    focusOnChange = true;
    try {
      await action();
    } finally {
      focusOnChange = false;
    }
  }

  function backToChoice(): void {
    void byCustomer(() => {
      method = 'crypto';
      choosing = true;
      render();
    });
  }

  function choose(choice: Choice): Promise<void> {
    return byCustomer(async () => {
      if (choice.method === 'crypto') {
        await api.post<PaymentInstructions>('/checkout/sessions/select-payment', {
          session_id: sessionId,
          token: choice.token,
          chain: choice.chain,
        });
      }
      method = choice.method;
      choosing = false;
      await refresh();
    });
  }

  const poll = async () => {
    await refresh();
    if (!stopped) pollTimer = window.setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
}
