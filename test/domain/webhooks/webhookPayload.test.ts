// The settlement a webhook carries says where the money is: a payout on Solana, or the merchant's own bank account.
import { describe, expect, it } from 'vitest';
import { buildWebhookPayload, type WebhookPayloadInput } from '../../../domain/webhooks/webhookPayload';

const input = (provider: string, reference: string): WebhookPayloadInput => ({
  event: 'payment.underpaid',
  status: 'underpaid',
  sessionId: 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  extTransactionId: 'order-1',
  amountUsdCents: '10000',
  metadata: {},
  settlement: { amountUsdcBaseUnits: '40000000', settledAt: '2026-11-27T10:00:00.000Z', reference, provider },
  timestamp: '2026-11-27T10:00:00.100Z',
});

describe('webhook payload settlement', () => {
  it('names the chain of a payout, and bank for money the merchant received by bank transfer', () => {
    expect(buildWebhookPayload(input('solana-treasury', '5VfY')).settlement).toEqual({
      amount_usdc: '40.000000',
      chain: 'solana',
      settled_at: '2026-11-27T10:00:00.000Z',
      reference: '5VfY',
      provider: 'solana-treasury',
    });
    expect(buildWebhookPayload(input('bank', 'CS-ABC, CS-ABC-2')).settlement).toEqual({
      amount_usdc: '40.000000',
      chain: 'bank',
      settled_at: '2026-11-27T10:00:00.000Z',
      reference: 'CS-ABC, CS-ABC-2',
      provider: 'bank',
    });
  });

  it('keeps the gross and adds netted_usdc, only when the payout netted something from what the merchant owed', () => {
    const netted = (nettedUsdcBaseUnits: string) => {
      const base = input('solana-treasury', 'netted:pay_1');
      return buildWebhookPayload({ ...base, settlement: { ...base.settlement!, nettedUsdcBaseUnits } }).settlement;
    };
    expect(netted('1500000')).toMatchObject({ amount_usdc: '40.000000', netted_usdc: '1.500000', reference: 'netted:pay_1' });
    expect(netted('0')).not.toHaveProperty('netted_usdc');
    const base = input('solana-treasury', 'sig');
    const charged = (feeUsdcBaseUnits: string) =>
      buildWebhookPayload({ ...base, settlement: { ...base.settlement!, nettedUsdcBaseUnits: '1500000', feeUsdcBaseUnits } }).settlement;
    expect(charged('250000')).toMatchObject({ amount_usdc: '40.000000', netted_usdc: '1.500000', fee_usdc: '0.250000' });
    expect(charged('0')).not.toHaveProperty('fee_usdc');
  });
});
