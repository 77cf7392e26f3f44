// The API's side of a refund's workflow (workflows/refund.ts): started by name, as api/ never imports workflow code, once
// the refund row is committed; told of a claim or a cancellation after the row moved. Every call is safe to repeat, so
// a request retried after any failure here heals what the first one left undone.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { Refund } from '../../../db/repositories/refunds';
import { REFUND_SIGNALS, refundWorkflowId, type RefundPaymentRequest } from '../../../domain/refunds/refundPayment';
import { errorFields } from '../../../observability/logger';
import type { AppDeps } from '../../context';
import { ServiceUnavailableError } from '../../errors';

export const REFUND_WORKFLOW = 'refundWorkflow';

/**
 * Starts the refund's workflow unless it was started before; with `claimed`, also tells it the refund is claimed, in
 * the same call, so a workflow never waits for a claim that was made before it began.
 */
export async function startRefundWorkflow(deps: Pick<AppDeps, 'temporal' | 'config' | 'logger'>, refund: Refund): Promise<void> {
  const args: [RefundPaymentRequest] = [{ refundId: refund.id, mode: refund.mode }];
  const options = {
    workflowId: refundWorkflowId(refund.id),
    taskQueue: deps.config.temporal.taskQueue,
    args,
    // One workflow per refund, ever: a retry long after it closed must not start it over.
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
  };
  try {
    if (refund.status === 'claimed') {
      await deps.temporal.workflow.signalWithStart(REFUND_WORKFLOW, { ...options, signal: REFUND_SIGNALS.claimed, signalArgs: [] });
    } else {
      await deps.temporal.workflow.start(REFUND_WORKFLOW, options);
    }
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    deps.logger.error({ err: errorFields(error), refundId: refund.id }, 'could not start the refund workflow');
    throw new ServiceUnavailableError(
      'The refund was recorded but its processing could not be started; retry with the same Idempotency-Key',
    );
  }
}

/** Tells the workflow the merchant withdrew the refund; a workflow that is gone has nothing left to stop. */
export async function signalRefundCancelled(deps: Pick<AppDeps, 'temporal' | 'logger'>, refundId: string): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(refundWorkflowId(refundId)).signal(REFUND_SIGNALS.cancelled);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    deps.logger.error({ err: errorFields(error), refundId }, 'could not signal the refund workflow');
    throw new ServiceUnavailableError('The refund was cancelled but its processing could not be told; retry the request');
  }
}
