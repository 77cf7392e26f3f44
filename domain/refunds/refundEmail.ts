// The customer's e-mails about a refund (docs/refunds.md#e-mail-to-the-customer): the claim link when the refund is
// opened, a reminder three days before it expires, each at most once, and only while it waits for a claim. Plain text,
// with no more than the customer needs. Pure: the API sends the first, the worker the second.
import type { RefundStatus } from './refundStatus';

/**
 * The claim link is a bearer credential signed under the API's secret: only the API, which makes it, may put it in an
 * e-mail. The reminder, sent by the worker, which never sees the link, carries none.
 */
export type RefundEmail = { kind: 'claim'; claimUrl: string } | { kind: 'reminder' };
export type RefundEmailKind = RefundEmail['kind'];

/** The webhook the worker's e-mail goes out with: the customer hears what the merchant hears, at the same moment. */
export const REFUND_EMAIL_FOR_EVENT: Readonly<Partial<Record<string, 'reminder'>>> = {
  'refund.expiring': 'reminder',
};

/**
 * Activity attempts that try the SMTP server before the reminder is given up: the webhook it goes out with waits for
 * it, and a merchant's refund must not wait on a mail server for long.
 */
export const REFUND_EMAIL_ATTEMPTS = 3;

export const giveUpRefundEmail = (attempt: number): boolean => attempt >= REFUND_EMAIL_ATTEMPTS;

/** What the rows say about a refund's e-mails. */
export interface RefundEmailFacts {
  status: RefundStatus;
  amountUsdMicros: bigint;
  expiresAt: Date;
  customerEmail: string | null;
  /** The name of the merchant that refunds, as the customer may know it. */
  merchantName: string | null;
  claimEmailedAt: Date | null;
  reminderEmailedAt: Date | null;
}

export interface RefundEmailMessage {
  to: string;
  subject: string;
  text: string;
}

export type RefundEmailVerdict = { send: true; message: RefundEmailMessage } | { send: false; why: string };

/** Whether `email` is due, and what it says. */
export function refundEmailVerdict(email: RefundEmail, facts: RefundEmailFacts): RefundEmailVerdict {
  if (facts.customerEmail === null) return { send: false, why: 'no customer e-mail address' };
  if ((email.kind === 'claim' ? facts.claimEmailedAt : facts.reminderEmailedAt) !== null) return { send: false, why: 'already sent' };
  // Claimed (by the merchant as it was created, or since), cancelled or expired: there is nothing left to claim.
  if (facts.status !== 'pending_claim') return { send: false, why: `the refund is ${facts.status}` };
  const refund = { ...facts, to: facts.customerEmail };
  return { send: true, message: email.kind === 'claim' ? claimMessage(refund, email.claimUrl) : reminderMessage(refund) };
}

interface MessageFacts {
  to: string;
  amountUsdMicros: bigint;
  expiresAt: Date;
  merchantName: string | null;
}

export function claimMessage(refund: MessageFacts, claimUrl: string): RefundEmailMessage {
  const amount = usd(refund.amountUsdMicros);
  const closes = utcMinute(refund.expiresAt);
  const text = [
    `A refund of ${amount}${from(refund)} is waiting for you.`,
    '',
    'Choose the wallet to receive it in (USDC on Solana) at this link:',
    claimUrl,
    '',
    `The link works until ${closes}. A refund not claimed by then expires.`,
    '',
    'Keep this e-mail and its link to yourself: whoever opens the link can say where the refund goes. If you did not expect a refund, ignore this e-mail.',
    '',
  ].join('\n');
  return { to: refund.to, subject: `A refund of ${amount} is waiting for you`, text };
}

export function reminderMessage(refund: MessageFacts): RefundEmailMessage {
  const amount = usd(refund.amountUsdMicros);
  const closes = utcMinute(refund.expiresAt);
  const text = [
    `Your refund of ${amount}${from(refund)} has not been claimed yet. It expires on ${closes}.`,
    '',
    `To claim it, open the link in the e-mail we sent when the refund was opened, or ask ${refund.merchantName ?? 'the merchant'} for it.`,
    'A refund not claimed by then expires.',
    '',
    'If you did not expect a refund, ignore this e-mail.',
    '',
  ].join('\n');
  return { to: refund.to, subject: `Reminder: your refund of ${amount} expires on ${closes}`, text };
}

const from = (refund: MessageFacts): string => (refund.merchantName ? ` from ${refund.merchantName}` : '');

/** $12.50; an amount finer than a cent keeps its micro-units ($0.123456). */
function usd(micros: bigint): string {
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0');
  const shown = fraction.endsWith('0000') ? fraction.slice(0, 2) : fraction.replace(/0+$/, '');
  return `$${whole.toLocaleString('en-US')}.${shown}`;
}

/** 2026-12-27 10:00 UTC */
const utcMinute = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
