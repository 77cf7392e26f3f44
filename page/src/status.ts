// The one-line status of the checkout, announced politely whenever it changes (the page's aria-live region).
import type { HostedCheckoutSession } from '../../domain/wire/hostedCheckout';
import type { SessionStatus } from '../../domain/wire/status';
import { trimTokenAmount } from './format';

export const FINAL_STATUSES: readonly SessionStatus[] = ['completed', 'overpaid', 'expired', 'failed', 'cancelled'];

const LABELS: Record<SessionStatus, string> = {
  pending: 'Choose how to pay',
  awaiting_payment: 'Awaiting payment',
  confirming: 'Confirming payment',
  completed: 'Completed',
  underpaid: 'Partly paid',
  overpaid: 'Paid (overpaid)',
  expired: 'Expired',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const statusLabel = (status: SessionStatus, method: 'crypto' | 'bank'): string =>
  method === 'bank' && (status === 'pending' || status === 'awaiting_payment') ? 'Awaiting bank transfer' : LABELS[status];

export function statusSentence(session: HostedCheckoutSession, method: 'crypto' | 'bank'): string {
  const p = session.payment;
  switch (session.status) {
    case 'pending':
      return method === 'bank' ? 'Waiting for your bank transfer.' : 'Waiting for you to choose how to pay.';
    case 'awaiting_payment':
      return method === 'bank' ? 'Waiting for your bank transfer.' : 'Waiting for your payment. This page updates by itself.';
    case 'confirming':
      return 'Payment detected. Waiting for network confirmations.';
    case 'underpaid':
      return p ? `Partial payment received: ${trimTokenAmount(p.amount_due)} ${p.token} still due.` : 'Partial payment received.';
    default:
      return `${statusLabel(session.status, method)}.`;
  }
}
