// The payload of docs/webhooks.md#payload. The other events carry the same fields where they apply: no payment_id or
// token amounts before a method was chosen, no settlement before funds were settled. Beyond the
// five events, `payment.confirming` announces a deposit seen and `payment.cancelled` a cancel; a refund's events and
// `payment.unmatched_deposit` carry their own payloads (refundWebhookPayload.ts).
import { centsToUsd } from '../money/money';
import { toSixDecimalString } from '../money/pricing';
import { BANK_PROVIDER } from '../settlement/settlementRoute';
import type { Metadata, Mode } from '../wire/session';
import type { SessionStatus } from '../wire/status';

/** The events of a session's status changes. */
export const SESSION_WEBHOOK_EVENTS = [
  'payment.completed',
  'payment.expired',
  'payment.underpaid',
  'payment.overpaid',
  'payment.failed',
  'payment.confirming',
  'payment.cancelled',
] as const;
export type SessionWebhookEvent = (typeof SESSION_WEBHOOK_EVENTS)[number];

/** A refund's events (docs/refunds.md#webhooks), one delivery per refund and event. */
export const REFUND_WEBHOOK_EVENTS = [
  'refund.created',
  'refund.claimed',
  'refund.completed',
  'refund.failed',
  'refund.expired',
  'refund.expiring',
  'refund.cancelled',
] as const;
export type RefundWebhookEvent = (typeof REFUND_WEBHOOK_EVENTS)[number];

/** Money arrived that no session could credit (late, another token or chain, dust): a refund was opened for it. */
export const UNMATCHED_DEPOSIT_EVENT = 'payment.unmatched_deposit';

export const WEBHOOK_EVENTS = [...SESSION_WEBHOOK_EVENTS, UNMATCHED_DEPOSIT_EVENT, ...REFUND_WEBHOOK_EVENTS] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Statuses whose arrival is announced to the merchant; the others are visible by polling. */
export const EVENT_FOR_STATUS: Partial<Record<SessionStatus, SessionWebhookEvent>> = {
  completed: 'payment.completed',
  expired: 'payment.expired',
  underpaid: 'payment.underpaid',
  overpaid: 'payment.overpaid',
  failed: 'payment.failed',
  confirming: 'payment.confirming',
  cancelled: 'payment.cancelled',
};

export interface WebhookPayloadInput {
  event: SessionWebhookEvent;
  status: SessionStatus;
  sessionId: string;
  extTransactionId: string;
  amountUsdCents: string;
  metadata: Metadata;
  payment?: {
    paymentId: string;
    tokenSymbol: string;
    chain: string;
    expectedBaseUnits: string;
    receivedBaseUnits: string;
    decimals: number;
  };
  settlement?: {
    amountUsdcBaseUnits: string;
    settledAt: string;
    reference: string;
    provider: string;
    /** The part of the gross the payout netted from the merchant's receivable; only when some was. */
    nettedUsdcBaseUnits?: string;
    /** The operator's fee deducted from the gross; only when there was one. */
    feeUsdcBaseUnits?: string;
  };
  timestamp: string;
}

export interface WebhookPayload {
  event: SessionWebhookEvent;
  /** The delivery's `wh_` id (the X-Service-Idempotency-Key), signed so a body cannot pass under another key. */
  delivery_id: string;
  /** Signed too, so a test-mode delivery can never pass as a live one (Stripe's `livemode`). */
  livemode: boolean;
  payment_id?: string;
  session_id: string;
  transaction_id: string;
  status: SessionStatus;
  amount: {
    usd_requested: number;
    token_expected?: string;
    token_received?: string;
    token_symbol?: string;
    chain?: string;
  };
  /**
   * Beyond the three of docs/webhooks.md#payload: `reference` finds the settlement on chain (the payout's transaction signature),
   * and `provider` says how it settled — `simulated` when no treasury paid anything (test mode without one), `bank` (with
   * `chain` `bank`) when the merchant's own account received it by bank transfer. `amount_usdc` is the payout's gross;
   * `netted_usdc`, an optional extension present only when non-zero, is the part of it that repaid what the merchant owed
   * for refunds instead of being sent (docs/refunds.md#funding); `fee_usdc`, an optional extension present only when
   * non-zero, is the operator's fee kept of it (docs/settlement.md#fees); `reference` is then `netted:<pay_id>` when the
   * two took all of it.
   */
  settlement?: {
    amount_usdc: string;
    chain: 'solana' | 'bank';
    settled_at: string;
    reference: string;
    provider: string;
    netted_usdc?: string;
    fee_usdc?: string;
  };
  metadata: Metadata;
  timestamp: string;
}

/** What a status change says; the delivery that carries it adds its identity (`webhookBody`). */
export type WebhookContent = Omit<WebhookPayload, 'delivery_id' | 'livemode'>;

export function buildWebhookPayload(input: WebhookPayloadInput): WebhookContent {
  const payment = input.payment;
  return {
    event: input.event,
    ...(payment ? { payment_id: payment.paymentId } : {}),
    session_id: input.sessionId,
    transaction_id: input.extTransactionId,
    status: input.status,
    amount: {
      usd_requested: centsToUsd(BigInt(input.amountUsdCents)),
      ...(payment
        ? {
            token_expected: toSixDecimalString(BigInt(payment.expectedBaseUnits), payment.decimals),
            token_received: toSixDecimalString(BigInt(payment.receivedBaseUnits), payment.decimals),
            token_symbol: payment.tokenSymbol,
            chain: payment.chain,
          }
        : {}),
    },
    ...(input.settlement
      ? {
          settlement: {
            amount_usdc: toSixDecimalString(BigInt(input.settlement.amountUsdcBaseUnits), 6),
            chain: input.settlement.provider === BANK_PROVIDER ? ('bank' as const) : ('solana' as const),
            settled_at: input.settlement.settledAt,
            reference: input.settlement.reference,
            provider: input.settlement.provider,
            ...(input.settlement.nettedUsdcBaseUnits && BigInt(input.settlement.nettedUsdcBaseUnits) > 0n
              ? { netted_usdc: toSixDecimalString(BigInt(input.settlement.nettedUsdcBaseUnits), 6) }
              : {}),
            ...(input.settlement.feeUsdcBaseUnits && BigInt(input.settlement.feeUsdcBaseUnits) > 0n
              ? { fee_usdc: toSixDecimalString(BigInt(input.settlement.feeUsdcBaseUnits), 6) }
              : {}),
          },
        }
      : {}),
    metadata: input.metadata,
    timestamp: input.timestamp,
  };
}

/** The exact bytes a delivery sends and signs: the content with the delivery's id and mode after the event name. */
export function webhookBody(content: { event: WebhookEvent }, deliveryId: string, mode: Mode): string {
  const { event, ...rest } = content;
  return JSON.stringify({ event, delivery_id: deliveryId, livemode: mode === 'live', ...rest });
}
