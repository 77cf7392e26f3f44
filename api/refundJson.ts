// A refund row → the RefundObject the merchant API answers (docs/refunds.md#api), through the one mapping webhooks
// use too (domain/refunds/refundJson.ts), with the claim link only the API can make.
import { requireSessionTokenSecret, type Config } from '../config/env';
import type { RefundListing } from '../db/repositories/refundListing';
import { refundClaimUrl } from '../domain/refunds/refundClaimToken';
import { refundJson } from '../domain/refunds/refundJson';
import type { RefundObject } from '../domain/wire/refund';

export function presentRefund(refund: RefundListing, config: Pick<Config, 'publicBaseUrl' | 'sessionTokenSecret'>): RefundObject {
  const { payout } = refund;
  const claimUrl =
    refund.status === 'pending_claim' ? refundClaimUrl(config.publicBaseUrl, refund.id, requireSessionTokenSecret(config)) : null;
  return refundJson(refund, payout && { ...payout, confirmed: payout.status === 'confirmed' }, claimUrl);
}
