// GET /checkout/refunds/{refund_id}: one refund of the key's merchant and mode; any other reads as not found.
import { findMerchantRefund } from '../../../db/repositories/refundListing';
import type { RefundObject } from '../../../domain/wire/refund';
import { presentRefund } from '../../refundJson';
import type { AppDeps, MerchantAuth } from '../../context';
import { refundNotFound } from '../../errors';

export async function getRefund(deps: AppDeps, auth: MerchantAuth, refundId: string): Promise<RefundObject> {
  const found = await findMerchantRefund(deps.sql, auth, refundId);
  if (!found) throw refundNotFound();
  return presentRefund(found, deps.config);
}
