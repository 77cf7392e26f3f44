// An underpaid session at its expiry whose merchant chose `refund` (docs/refunds.md#sources): nothing settles, and
// every credited deposit is owed back to the customer and refunded, one `underpaid_expired` refund per deposit, in one
// transaction; their workflows are started once it is committed, and announce them (refund.created).
import type { Sql } from '../../db/client';
import { openPendingDepositRefunds } from './automaticRefunds';
import { startRefundWorkflow, type RefundStarter } from './startRefundWorkflow';

export interface RefundUnderpaidSessionDeps {
  sql: Sql;
  /** REFUND_CLAIM_DAYS: how long the customer has to claim the refunds opened here. */
  refundClaimDays: number;
  startRefund?: RefundStarter;
  now?: () => Date;
}

export function createRefundUnderpaidSession(deps: RefundUnderpaidSessionDeps) {
  const startRefund = deps.startRefund ?? startRefundWorkflow;
  const now = deps.now ?? (() => new Date());
  return async function refundUnderpaidSession(sessionId: string): Promise<void> {
    const terms = { claimDays: deps.refundClaimDays, now: now() };
    const refunds = await deps.sql.begin((tx) => openPendingDepositRefunds(tx, sessionId, 'underpaid_expired', terms));
    // Every time, not only when opened now: an attempt that committed and died before starting is started by its retry.
    for (const refund of refunds) await startRefund(refund);
  };
}
