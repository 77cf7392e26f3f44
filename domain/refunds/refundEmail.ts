// The customer's e-mails about a refund (docs/refunds.md#e-mail-to-the-customer): the claim link when the refund is
// opened, a reminder three days before it expires, each at most once, and only while it waits for a claim. Plain text,
// with no more than the customer needs: the amount, the link and when it closes. Pure: the worker sends them.
import type { RefundStatus } from './refundStatus';

export type RefundEmailKind = 'claim' | 'reminder';

/** The webhook each e-mail goes out with: the customer hears what the merchant hears, at the same moment. */
export const REFUND_EMAIL_FOR_EVENT: Readonly<Partial<Record<string, RefundEmailKind>>> = {
  'refund.created': 'claim',
  'refund.expiring': 'reminder',
};

/**
 * Activity attempts that try the SMTP server before the e-mail is given up: the webhook it goes out with waits for it,
 * and a merchant's refund must not wait on a mail server for long.
 */
export const REFUND_EMAIL_ATTEMPTS = 3;

export const giveUpRefundEmail = (attempt: number): boolean => attempt >= REFUND_EMAIL_ATTEMPTS;

/** What the row says about a refund's e-mails. */
export interface RefundEmailFacts {
  status: RefundStatus;
  amountUsdMicros: bigint;
  expiresAt: Date;
  customerEmail: string | null;
  claimUrl: string | null;
  claimEmailedAt: Date | null;
  reminderEmailedAt: Date | null;
}

export interface RefundEmailMessage {
  to: string;
  subject: string;
  text: string;
}

export type RefundEmailVerdict = { send: true; message: RefundEmailMessage } | { send: false; why: string };

/** Whether the `kind` e-mail is due, and what it says. */
export function refundEmailVerdict(kind: RefundEmailKind, facts: RefundEmailFacts): RefundEmailVerdict {
  if (facts.customerEmail === null || facts.claimUrl === null) return { send: false, why: 'no customer e-mail address' };
  if ((kind === 'claim' ? facts.claimEmailedAt : facts.reminderEmailedAt) !== null) return { send: false, why: 'already sent' };
  // Claimed (by the merchant as it was created, or since), cancelled or expired: the link would lead nowhere.
  if (facts.status !== 'pending_claim') return { send: false, why: `the refund is ${facts.status}` };
  return { send: true, message: refundEmailMessage(kind, { ...facts, to: facts.customerEmail, claimUrl: facts.claimUrl }) };
}

export function refundEmailMessage(
  kind: RefundEmailKind,
  refund: { to: string; amountUsdMicros: bigint; expiresAt: Date; claimUrl: string },
): RefundEmailMessage {
  const amount = usd(refund.amountUsdMicros);
  const closes = utcMinute(refund.expiresAt);
  const subject = kind === 'claim' ? `A refund of ${amount} is waiting for you` : `Reminder: your refund of ${amount} expires on ${closes}`;
  const opening =
    kind === 'claim'
      ? `A refund of ${amount} is waiting for you.`
      : `Your refund of ${amount} has not been claimed yet. It expires on ${closes}.`;
  const text = [
    opening,
    '',
    'Choose the wallet to receive it in (USDC on Solana) at this link:',
    refund.claimUrl,
    '',
    `The link works until ${closes}. A refund not claimed by then expires.`,
    '',
    'Keep this link to yourself: whoever opens it can say where the refund goes. If you did not expect a refund, ignore this e-mail.',
    '',
  ].join('\n');
  return { to: refund.to, subject, text };
}

/** $12.50; an amount finer than a cent keeps its micro-units ($0.123456). */
function usd(micros: bigint): string {
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0');
  const shown = fraction.endsWith('0000') ? fraction.slice(0, 2) : fraction.replace(/0+$/, '');
  return `$${whole.toLocaleString('en-US')}.${shown}`;
}

/** 2026-12-27 10:00 UTC */
const utcMinute = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
