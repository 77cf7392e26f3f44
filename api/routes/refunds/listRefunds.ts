// GET /checkout/refunds: the key's merchant's refunds in its mode, newest first, a page at a time (`starting_after` the
// last id of the previous page, `has_more` whether another follows), optionally of one session, status or source.
import { listMerchantRefunds } from '../../../db/repositories/refundListing';
import type { RefundList, RefundListQuery } from '../../../domain/wire/refund';
import { presentRefund } from '../../refundJson';
import type { AppDeps, MerchantAuth } from '../../context';
import { ValidationFailedError } from '../../errors';

export async function listRefunds(deps: AppDeps, auth: MerchantAuth, query: RefundListQuery): Promise<RefundList> {
  const page = await listMerchantRefunds(deps.sql, auth, query);
  // A cursor of another merchant or mode is no refund of this list: saying so beats an empty page that looks like the end.
  if (!page.ok) throw new ValidationFailedError([`starting_after: no refund ${page.unknownCursor} in this list`]);
  return { data: page.refunds.map((refund) => presentRefund(refund, deps.config)), has_more: page.hasMore };
}
