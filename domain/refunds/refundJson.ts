// A refund as its JSON says it (domain/wire/refund.ts RefundObject): the API's answers and, without the claim link,
// the `refund` object of its webhooks (docs/refunds.md#webhooks). Pure.
import type { Chain, TokenSymbol } from '../chains/chains';
import type { FeePolicy, RefundDestination, RefundObject } from '../wire/refund';
import type { Mode } from '../wire/session';
import type { RefundSource } from './refundSource';
import type { RefundStatus } from './refundStatus';

/** What the refunds row says that its JSON shows (db/repositories/refunds.ts Refund adds the rest). */
export interface RefundFacts {
  id: string;
  mode: Mode;
  sessionId: string;
  source: RefundSource;
  token: TokenSymbol;
  chain: Chain;
  amountBaseUnits: bigint;
  amountUsdMicros: bigint;
  feePolicy: FeePolicy;
  status: RefundStatus;
  statusReason: string | null;
  destination: RefundDestination | null;
  requireSenderProof: boolean;
  reason: string | null;
  /** Where the customer's e-mails go (docs/refunds.md#e-mail-to-the-customer): shown to the merchant, never in a webhook. */
  customerEmail: string | null;
  expiresAt: Date;
  createdAt: Date;
  claimedAt: Date | null;
  completedAt: Date | null;
}

/** What the signer's refund_payouts row says of its payment, once it wrote one. */
export interface RefundPaymentFacts {
  /** Solana USDC base units: micro-dollars. */
  feeBaseUnits: bigint;
  /** Whether it landed: the fee is the refund's only once it was taken. */
  confirmed: boolean;
  signature: string | null;
}

/** USD micro-units as the number the JSON carries (six decimals at most). */
const microsToUsd = (micros: bigint): number => Number(micros) / 1_000_000;

export type RefundWebhookObject = Omit<RefundObject, 'claim_url' | 'customer_email'>;

/**
 * The refund without its claim link: what a webhook carries, since the link is the customer's, not the merchant's; nor
 * the customer's e-mail address, which stays out of the stored delivery bodies.
 */
export function refundWebhookObject(refund: RefundFacts, payment: RefundPaymentFacts | null): RefundWebhookObject {
  return {
    id: refund.id,
    object: 'refund',
    livemode: refund.mode === 'live',
    session_id: refund.sessionId,
    status: refund.status,
    status_reason: refund.statusReason,
    source: refund.source,
    amount_usd: microsToUsd(refund.amountUsdMicros),
    token: refund.token,
    chain: refund.chain,
    amount_base_units: refund.amountBaseUnits.toString(),
    fee_policy: refund.feePolicy,
    fee_usd: payment?.confirmed ? microsToUsd(payment.feeBaseUnits) : null,
    destination: refund.destination,
    require_sender_proof: refund.requireSenderProof,
    transaction_hash: payment?.signature ?? null,
    reason: refund.reason,
    expires_at: refund.expiresAt.toISOString(),
    created_at: refund.createdAt.toISOString(),
    claimed_at: refund.claimedAt?.toISOString() ?? null,
    completed_at: refund.completedAt?.toISOString() ?? null,
  };
}

/** The refund as the API answers it; `claimUrl` only while it waits for a claim. */
export function refundJson(refund: RefundFacts, payment: RefundPaymentFacts | null, claimUrl: string | null): RefundObject {
  return {
    ...refundWebhookObject(refund, payment),
    claim_url: refund.status === 'pending_claim' ? claimUrl : null,
    customer_email: refund.customerEmail,
  };
}
