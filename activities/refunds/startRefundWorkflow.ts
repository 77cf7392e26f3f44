// Starts a refund's workflow (workflows/refund.ts) once its row is committed, on the main queue: from the activity that
// opened the refund, through the worker's client, or from outside any workflow (the reconciliation sweep, the admin
// CLI) through a client of its own. One per refund, ever: a refund whose workflow already started (a retried activity,
// a verdict recorded again, a sweep run twice) is left to it, and one that ended is never run again.
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import type { Mode } from '../../domain/wire/session';
import type { RefundWorkflowInput } from '../../workflows/refundMessages';

export type RefundStarter = (refund: { id: string; mode: Mode }) => Promise<void>;

export const REFUND_WORKFLOW = 'refundWorkflow';

/** Starts refund workflows through `client` on `taskQueue`, the worker's. */
export const refundStarter =
  (client: Client, taskQueue: string): RefundStarter =>
  async (refund) => {
    try {
      await client.workflow.start(REFUND_WORKFLOW, {
        workflowId: refundWorkflowId(refund.id),
        taskQueue,
        args: [{ refundId: refund.id, mode: refund.mode } satisfies RefundWorkflowInput],
        // As the API's: a start long after the workflow closed must not run it over.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };

export const startRefundWorkflow: RefundStarter = (refund) => {
  const context = Context.current();
  return refundStarter(context.client, context.info.taskQueue)(refund);
};
