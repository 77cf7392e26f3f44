// A refund row → the RefundObject the merchant API answers (docs/refunds.md#api). Written once, so every endpoint and
// every replay shows a refund the same way.
import { requireSessionTokenSecret, type Config } from '../config/env';
import type { MerchantRefund } from '../db/repositories/merchantRefunds';
import { refundClaimUrl } from '../domain/refunds/refundClaimToken';
import type { RefundObject } from '../domain/wire/refund';

const usd = (micros: bigint) => Number(micros) / 1_000_000;

export function presentRefund(
  { refund, payout }: MerchantRefund,
  config: Pick<Config, 'publicBaseUrl' | 'sessionTokenSecret'>,
): RefundObject {
  return {
    id: refund.id,
    object: 'refund',
    livemode: refund.mode === 'live',
    session_id: refund.sessionId,
    status: refund.status,
    status_reason: refund.statusReason,
    source: refund.source,
    amount_usd: usd(refund.amountUsdMicros),
    token: refund.token,
    chain: refund.chain,
    amount_base_units: refund.amountBaseUnits.toString(),
    fee_policy: refund.feePolicy,
    // The treasury pays in Solana USDC, six decimals: its fee's base units are USD micro-units.
    fee_usd: payout?.status === 'confirmed' ? usd(payout.feeBaseUnits) : null,
    destination: refund.destination,
    require_sender_proof: refund.requireSenderProof,
    // Only while it waits for a claim: once claimed the link has nothing left to do.
    claim_url:
      refund.status === 'pending_claim' ? refundClaimUrl(config.publicBaseUrl, refund.id, requireSessionTokenSecret(config)) : null,
    transaction_hash: payout?.signature ?? null,
    reason: refund.reason,
    expires_at: refund.expiresAt.toISOString(),
    created_at: refund.createdAt.toISOString(),
    claimed_at: refund.claimedAt?.toISOString() ?? null,
    completed_at: refund.completedAt?.toISOString() ?? null,
  };
}
