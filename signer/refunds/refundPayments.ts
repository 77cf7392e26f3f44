// The signer's refund activity (docs/refunds.md#payment): each mode's refunds are paid by that mode's treasury, the
// one that pays its merchants. A mode the operator gave no treasury key pays no refund: one not yet written is
// answered failed (nothing was written or sent, the money stays owed where it was); one written while the key was
// there waits for it, as its transaction may still land.
import { findRefundPayout } from '../../db/repositories/refundPayouts';
import type { RefundPaymentOutcome, RefundPaymentRequest } from '../../domain/refunds/refundPayment';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import type { Mode } from '../../domain/wire/session';
import { ApplicationFailure } from '@temporalio/activity';
import type { SolanaChainWriterDeps } from '../chainWrites/solanaChainWriter';
import { createRefundPayer, type RefundPayerDeps } from './refundPayment';

export function createPayRefund(
  payers: Partial<Record<Mode, RefundPayerDeps>>,
  /** Each keyless mode's database and Solana node, where configured: enough to tell whether a refund was written. */
  followers: Partial<Record<Mode, SolanaChainWriterDeps>> = {},
) {
  const pay = {
    test: payers.test && createRefundPayer(payers.test),
    live: payers.live && createRefundPayer(payers.live),
  };
  return async function payRefund(request: RefundPaymentRequest): Promise<RefundPaymentOutcome> {
    const payer = pay[request.mode];
    if (payer) return payer(request);
    const follower = followers[request.mode];
    if (follower && !(await findRefundPayout(follower.sql, request.refundId)))
      return { status: 'failed', reason: `the signer holds no ${request.mode} treasury key: ${request.mode} refunds are not paid` };
    throw ApplicationFailure.retryable(
      `refund ${request.refundId} may have been written by the ${request.mode} treasury, whose key the signer no longer holds: give it back to finish it`,
      WorkflowFailure.PayoutKeyMissing,
    );
  };
}
