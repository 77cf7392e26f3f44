// Where a refund stands, for its workflow (workflows/refund.ts): the row is the truth, the signals only wake the
// workflow to read it again.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findRefund } from '../../db/repositories/refunds';
import type { RefundSource } from '../../domain/refunds/refundSource';
import type { RefundStatus } from '../../domain/refunds/refundStatus';

export interface RefundProgress {
  status: RefundStatus;
  source: RefundSource;
  createdAtMs: number;
  expiresAtMs: number;
}

export const REFUND_MISSING = 'RefundMissing';

export function createRefundProgress(deps: { sql: Sql }) {
  return async function refundProgress(refundId: string): Promise<RefundProgress> {
    const refund = await findRefund(deps.sql, refundId);
    if (!refund) throw ApplicationFailure.nonRetryable(`No refund ${refundId}`, REFUND_MISSING);
    return {
      status: refund.status,
      source: refund.source,
      createdAtMs: refund.createdAt.getTime(),
      expiresAtMs: refund.expiresAt.getTime(),
    };
  };
}
