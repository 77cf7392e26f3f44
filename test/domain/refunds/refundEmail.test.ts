// The customer's refund e-mails: due once per kind while the refund waits for a claim, plain text with the amount, the
// claim link and when it closes.
import { describe, expect, it } from 'vitest';
import {
  giveUpRefundEmail,
  REFUND_EMAIL_FOR_EVENT,
  refundEmailMessage,
  refundEmailVerdict,
  type RefundEmailFacts,
} from '../../../domain/refunds/refundEmail';

const CLAIM_URL = 'https://pay.example/refunds/ref_01ARZ3NDEKTSV4RRFFQ69G5FAV.mac';
const facts: RefundEmailFacts = {
  status: 'pending_claim',
  amountUsdMicros: 12_500_000n,
  expiresAt: new Date('2026-12-28T10:21:04.120Z'),
  customerEmail: 'customer@example.com',
  claimUrl: CLAIM_URL,
  claimEmailedAt: null,
  reminderEmailedAt: null,
};

describe('refund e-mails', () => {
  it('goes out with refund.created and refund.expiring only', () => {
    expect(REFUND_EMAIL_FOR_EVENT).toEqual({ 'refund.created': 'claim', 'refund.expiring': 'reminder' });
  });

  it('sends the claim link, the amount and the deadline to the customer', () => {
    const verdict = refundEmailVerdict('claim', facts);
    expect(verdict).toEqual({
      send: true,
      message: {
        to: 'customer@example.com',
        subject: 'A refund of $12.50 is waiting for you',
        text: expect.stringContaining(`\n${CLAIM_URL}\n`),
      },
    });
    expect(verdict.send && verdict.message.text).toContain('The link works until 2026-12-28 10:21 UTC.');
  });

  it('reminds with the date it expires', () => {
    const verdict = refundEmailVerdict('reminder', { ...facts, claimEmailedAt: new Date() });
    expect(verdict.send && verdict.message.subject).toBe('Reminder: your refund of $12.50 expires on 2026-12-28 10:21 UTC');
    expect(verdict.send && verdict.message.text).toContain(CLAIM_URL);
  });

  it('sends each kind once', () => {
    expect(refundEmailVerdict('claim', { ...facts, claimEmailedAt: new Date() })).toEqual({ send: false, why: 'already sent' });
    expect(refundEmailVerdict('reminder', { ...facts, reminderEmailedAt: new Date() })).toEqual({ send: false, why: 'already sent' });
  });

  it('sends nothing without an address, or once the refund no longer waits for a claim', () => {
    expect(refundEmailVerdict('claim', { ...facts, customerEmail: null, claimUrl: null })).toEqual({
      send: false,
      why: 'no customer e-mail address',
    });
    for (const status of ['claimed', 'submitted', 'completed', 'failed', 'expired', 'cancelled'] as const) {
      expect(refundEmailVerdict('reminder', { ...facts, status })).toEqual({ send: false, why: `the refund is ${status}` });
    }
  });

  it('writes dollars and cents, and keeps an amount finer than a cent', () => {
    const subject = (amountUsdMicros: bigint) =>
      refundEmailMessage('claim', { to: 'c@example.com', amountUsdMicros, expiresAt: facts.expiresAt, claimUrl: CLAIM_URL }).subject;
    expect(subject(1_234_500_000n)).toBe('A refund of $1,234.50 is waiting for you');
    expect(subject(123_456n)).toBe('A refund of $0.123456 is waiting for you');
    expect(subject(5_000_000n)).toBe('A refund of $5.00 is waiting for you');
  });

  it('is plain text with no markup, and warns that the link is a credential', () => {
    const { text } = refundEmailMessage('reminder', {
      to: 'c@example.com',
      amountUsdMicros: 1n,
      expiresAt: facts.expiresAt,
      claimUrl: CLAIM_URL,
    });
    expect(text).not.toMatch(/<[a-z]/i);
    expect(text).toContain('Keep this link to yourself');
  });

  it('gives up after three attempts of its activity', () => {
    expect([1, 2, 3, 4].map(giveUpRefundEmail)).toEqual([false, false, true, true]);
  });
});
