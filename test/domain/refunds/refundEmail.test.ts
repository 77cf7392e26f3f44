// The customer's refund e-mails: due once per kind while the refund waits for a claim, plain text; the claim e-mail
// with the amount, the claim link and when it closes, the reminder with no link at all.
import { describe, expect, it } from 'vitest';
import {
  claimMessage,
  giveUpRefundEmail,
  REFUND_EMAIL_FOR_EVENT,
  refundEmailVerdict,
  reminderMessage,
  type RefundEmailFacts,
} from '../../../domain/refunds/refundEmail';

const CLAIM_URL = 'https://pay.example/refunds/ref_01ARZ3NDEKTSV4RRFFQ69G5FAV.mac';
const CLAIM = { kind: 'claim', claimUrl: CLAIM_URL } as const;
const REMINDER = { kind: 'reminder' } as const;
const facts: RefundEmailFacts = {
  status: 'pending_claim',
  amountUsdMicros: 12_500_000n,
  expiresAt: new Date('2026-12-28T10:21:04.120Z'),
  customerEmail: 'customer@example.com',
  merchantName: 'Alice Shop',
  claimEmailedAt: null,
  reminderEmailedAt: null,
};

describe('refund e-mails', () => {
  it('the worker sends only the reminder, with refund.expiring', () => {
    expect(REFUND_EMAIL_FOR_EVENT).toEqual({ 'refund.expiring': 'reminder' });
  });

  it('sends the claim link, the amount, the merchant and the deadline to the customer', () => {
    const verdict = refundEmailVerdict(CLAIM, facts);
    expect(verdict).toEqual({
      send: true,
      message: {
        to: 'customer@example.com',
        subject: 'A refund of $12.50 is waiting for you',
        text: expect.stringContaining(`\n${CLAIM_URL}\n`),
      },
    });
    expect(verdict.send && verdict.message.text).toContain('A refund of $12.50 from Alice Shop is waiting for you.');
    expect(verdict.send && verdict.message.text).toContain('The link works until 2026-12-28 10:21 UTC.');
  });

  it('reminds with the amount, the merchant and the date it expires, and carries no link', () => {
    const verdict = refundEmailVerdict(REMINDER, { ...facts, claimEmailedAt: new Date() });
    if (!verdict.send) throw new Error(verdict.why);
    expect(verdict.message.subject).toBe('Reminder: your refund of $12.50 expires on 2026-12-28 10:21 UTC');
    expect(verdict.message.text).toContain(
      'Your refund of $12.50 from Alice Shop has not been claimed yet. It expires on 2026-12-28 10:21 UTC.',
    );
    expect(verdict.message.text).toContain('open the link in the e-mail we sent when the refund was opened, or ask Alice Shop for it');
    expect(verdict.message.text).not.toMatch(/https?:|\/refunds\//);
  });

  it('names no merchant it does not know', () => {
    const { text } = reminderMessage({ ...facts, to: 'c@example.com', merchantName: null });
    expect(text).toContain('Your refund of $12.50 has not been claimed yet.');
    expect(text).toContain('or ask the merchant for it');
  });

  it('sends each kind once', () => {
    expect(refundEmailVerdict(CLAIM, { ...facts, claimEmailedAt: new Date() })).toEqual({ send: false, why: 'already sent' });
    expect(refundEmailVerdict(REMINDER, { ...facts, reminderEmailedAt: new Date() })).toEqual({ send: false, why: 'already sent' });
  });

  it('sends nothing without an address, or once the refund no longer waits for a claim', () => {
    expect(refundEmailVerdict(CLAIM, { ...facts, customerEmail: null })).toEqual({ send: false, why: 'no customer e-mail address' });
    for (const status of ['claimed', 'submitted', 'completed', 'failed', 'expired', 'cancelled'] as const) {
      expect(refundEmailVerdict(REMINDER, { ...facts, status })).toEqual({ send: false, why: `the refund is ${status}` });
      expect(refundEmailVerdict(CLAIM, { ...facts, status })).toEqual({ send: false, why: `the refund is ${status}` });
    }
  });

  it('writes dollars and cents, and keeps an amount finer than a cent', () => {
    const subject = (amountUsdMicros: bigint) => claimMessage({ ...facts, to: 'c@example.com', amountUsdMicros }, CLAIM_URL).subject;
    expect(subject(1_234_500_000n)).toBe('A refund of $1,234.50 is waiting for you');
    expect(subject(123_456n)).toBe('A refund of $0.123456 is waiting for you');
    expect(subject(5_000_000n)).toBe('A refund of $5.00 is waiting for you');
  });

  it('is plain text with no markup, and warns that the link is a credential', () => {
    const { text } = claimMessage({ ...facts, to: 'c@example.com', amountUsdMicros: 1n }, CLAIM_URL);
    expect(text).not.toMatch(/<[a-z]/i);
    expect(text).toContain('Keep this e-mail and its link to yourself');
  });

  it('gives up a reminder after three attempts of its activity', () => {
    expect([1, 2, 3, 4].map(giveUpRefundEmail)).toEqual([false, false, true, true]);
  });
});
