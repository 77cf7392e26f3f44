// Starts a refund's workflow (workflows/refund.ts) from the activity that opened the refund, on that activity's own
// queue (the main one), through the worker's client. One per refund, ever: a refund whose workflow already started
// (a retried activity, a verdict recorded again) is left to it, and one that ended is never run again.
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import type { Mode } from '../../domain/wire/session';
import type { RefundWorkflowInput } from '../../workflows/refundMessages';

export type RefundStarter = (refund: { id: string; mode: Mode }) => Promise<void>;

export const REFUND_WORKFLOW = 'refundWorkflow';

export const startRefundWorkflow: RefundStarter = async (refund) => {
  const context = Context.current();
  try {
    await context.client.workflow.start(REFUND_WORKFLOW, {
      workflowId: refundWorkflowId(refund.id),
      taskQueue: context.info.taskQueue,
      args: [{ refundId: refund.id, mode: refund.mode } satisfies RefundWorkflowInput],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
};
