// A refund's webhooks carry the refund without its claim link or its customer's e-mail address, and payment.unmatched_deposit the deposit it returns.
import { describe, expect, it } from 'vitest';
import type { RefundFacts } from '../../../domain/refunds/refundJson';
import { refundJson } from '../../../domain/refunds/refundJson';
import { refundWebhookContent, unmatchedDepositWebhookContent } from '../../../domain/webhooks/refundWebhookPayload';
import { WEBHOOK_EVENTS, webhookBody } from '../../../domain/webhooks/webhookPayload';
import { RefundObject } from '../../../domain/wire/refund';

const refund: RefundFacts = {
  id: 'ref_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  mode: 'test',
  sessionId: 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  source: 'late_deposit',
  token: 'USDT',
  chain: 'bsc',
  amountBaseUnits: 2_500_000_000_000_000_000n,
  amountUsdMicros: 2_500_000n,
  feePolicy: 'deducted',
  status: 'completed',
  statusReason: null,
  destination: { chain: 'solana', token: 'USDC', address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' },
  requireSenderProof: false,
  reason: null,
  customerEmail: 'customer@example.com',
  expiresAt: new Date('2026-12-27T00:00:00Z'),
  createdAt: new Date('2026-11-27T00:00:00Z'),
  claimedAt: new Date('2026-11-28T00:00:00Z'),
  completedAt: new Date('2026-11-28T00:01:00Z'),
};
const session = { sessionId: refund.sessionId, extTransactionId: 'order-7', metadata: { cart: 'c-1' } };

describe('refund webhooks', () => {
  it("carries the refund as the API shows it, with the payment's fee and transaction, and no claim link nor e-mail address", () => {
    const content = refundWebhookContent(
      'refund.completed',
      session,
      refund,
      { feeBaseUnits: 10_000n, signature: '5sig', confirmed: true },
      't',
    );
    expect(content.refund).toMatchObject({ amount_usd: 2.5, fee_usd: 0.01, transaction_hash: '5sig', status: 'completed' });
    expect(content.refund).not.toHaveProperty('claim_url');
    expect(content.refund).not.toHaveProperty('customer_email');
    expect(RefundObject.safeParse({ ...content.refund, claim_url: null, customer_email: null }).success).toBe(true);
    const body = JSON.parse(webhookBody(content, 'wh_1', 'test'));
    expect(body).toMatchObject({ event: 'refund.completed', delivery_id: 'wh_1', livemode: false, transaction_id: 'order-7' });
  });

  it('shows no fee while the payment has not landed', () => {
    const submitted = refundJson({ ...refund, status: 'submitted' }, { feeBaseUnits: 10_000n, signature: '5sig', confirmed: false }, null);
    expect(submitted).toMatchObject({ fee_usd: null, transaction_hash: '5sig' });
  });

  it("gives the merchant's API the customer's e-mail address", () => {
    expect(refundJson(refund, null, null).customer_email).toBe('customer@example.com');
  });

  it('gives the API its claim link only while the refund waits for a claim', () => {
    expect(refundJson(refund, null, 'https://pay.example/refunds/t').claim_url).toBeNull();
    expect(refundJson({ ...refund, status: 'pending_claim' }, null, 'https://pay.example/refunds/t').claim_url).toBe(
      'https://pay.example/refunds/t',
    );
  });

  it('names the unmatched deposit and the refund opened for it', () => {
    const content = unmatchedDepositWebhookContent(session, { ...refund, deposit: { txHash: '0xabc', logIndex: 3 } }, 't');
    expect(content).toMatchObject({
      event: 'payment.unmatched_deposit',
      deposit: { chain: 'bsc', token: 'USDT', amount: '2.500000', amount_base_units: '2500000000000000000', transaction_hash: '0xabc' },
      refund_id: refund.id,
    });
    expect(WEBHOOK_EVENTS).toContain(content.event);
  });
});
