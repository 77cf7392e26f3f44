// The refund workflow's call to the signer (workflows/refund.ts): one resumable pass of a refund's payment on the
// queue of the signer of its mode, retried without limit like a merchant payout's, since a claimed refund must be paid
// however long the signer is away; what the signer refuses comes back as a `failed` outcome, not an error.
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RefundPaymentOutcome, RefundPaymentRequest } from '../domain/refunds/refundPayment';
import { signerTaskQueue } from '../domain/taskQueues';
import type { Mode } from '../domain/wire/session';
import { HEARTBEAT_TIMEOUT } from './sessionActivities';

/** The signer's side of docs/refunds.md#payment, as domain/refunds/refundPayment.ts states it. */
export interface RefundSignerActivities {
  payRefund(request: RefundPaymentRequest): Promise<RefundPaymentOutcome>;
}

export const refundPayments = (mode: Mode) =>
  proxyActivities<RefundSignerActivities>({
    taskQueue: signerTaskQueue(workflowInfo().taskQueue, mode),
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
