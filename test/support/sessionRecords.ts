import { newSessionId, newTransactionId } from '../../domain/wire/ids';
import type { SessionRecord } from '../../domain/wire/session';

/** A workflow input as the API would build it, for workflow tests that start sessions directly. */
export function sessionRecord(merchantId: string, options: { createdAt: Date; lifetimeMinutes: number }): SessionRecord {
  return {
    sessionId: newSessionId(),
    transactionId: newTransactionId(),
    merchantId,
    mode: 'test',
    extTransactionId: `order-${Math.random().toString(36).slice(2, 10)}`,
    amountUsdCents: '1999',
    webhookUrl: 'https://merchant.example/webhooks',
    metadata: { order: 'A-1' },
    supportedMethods: { crypto: true, bank: false },
    supportedTokens: { USDC: ['base', 'solana'] },
    tolerance: { bps: 50, minCents: '1' },
    lateDepositWatchHours: 168,
    createdAt: options.createdAt.toISOString(),
    expiresAt: new Date(options.createdAt.getTime() + options.lifetimeMinutes * 60_000).toISOString(),
  };
}
