// The payloads of a refund's webhooks and of `payment.unmatched_deposit` (docs/refunds.md#webhooks): the session they
// belong to, as a session event names it, and the refund (without its claim link) or the deposit. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import { toSixDecimalString } from '../money/pricing';
import { assetDecimals, tokenAsset } from '../ledger/ledger';
import { refundWebhookObject, type RefundFacts, type RefundPaymentFacts, type RefundWebhookObject } from '../refunds/refundJson';
import type { RefundStatus } from '../refunds/refundStatus';
import type { Metadata } from '../wire/session';
import { UNMATCHED_DEPOSIT_EVENT, type RefundWebhookEvent } from './webhookPayload';

/** The session a refund belongs to, as its webhooks name it. */
export interface RefundSessionFacts {
  sessionId: string;
  extTransactionId: string;
  metadata: Metadata;
}

export interface RefundWebhookContent {
  event: RefundWebhookEvent;
  session_id: string;
  transaction_id: string;
  refund: RefundWebhookObject;
  metadata: Metadata;
  timestamp: string;
}

export interface UnmatchedDepositWebhookContent {
  event: typeof UNMATCHED_DEPOSIT_EVENT;
  session_id: string;
  transaction_id: string;
  deposit: { chain: Chain; token: TokenSymbol; amount: string; amount_base_units: string; transaction_hash: string; log_index: number };
  /** The refund opened for it, which the customer claims. */
  refund_id: string;
  metadata: Metadata;
  timestamp: string;
}

/** The event a refund's final status is announced as. */
export const REFUND_EVENT_FOR_STATUS: Partial<Record<RefundStatus, RefundWebhookEvent>> = {
  claimed: 'refund.claimed',
  completed: 'refund.completed',
  failed: 'refund.failed',
  expired: 'refund.expired',
  cancelled: 'refund.cancelled',
};

export function refundWebhookContent(
  event: RefundWebhookEvent,
  session: RefundSessionFacts,
  refund: RefundFacts,
  payment: RefundPaymentFacts | null,
  timestamp: string,
): RefundWebhookContent {
  return {
    event,
    session_id: session.sessionId,
    transaction_id: session.extTransactionId,
    refund: refundWebhookObject(refund, payment),
    metadata: session.metadata,
    timestamp,
  };
}

export function unmatchedDepositWebhookContent(
  session: RefundSessionFacts,
  refund: Pick<RefundFacts, 'id' | 'token' | 'chain' | 'amountBaseUnits'> & { deposit: { txHash: string; logIndex: number } },
  timestamp: string,
): UnmatchedDepositWebhookContent {
  const { token, chain, amountBaseUnits } = refund;
  return {
    event: UNMATCHED_DEPOSIT_EVENT,
    session_id: session.sessionId,
    transaction_id: session.extTransactionId,
    deposit: {
      chain,
      token,
      amount: toSixDecimalString(amountBaseUnits, assetDecimals(tokenAsset(token, chain))),
      amount_base_units: amountBaseUnits.toString(),
      transaction_hash: refund.deposit.txHash,
      log_index: refund.deposit.logIndex,
    },
    refund_id: refund.id,
    metadata: session.metadata,
    timestamp,
  };
}
