// A refund's webhook: its delivery row written by an activity (one per refund and event), delivered by its own child
// workflow on the webhook queue, which outlives the refund's workflow, as a session's are (workflows/announceStatus.ts).
import { ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { RefundAnnouncement } from '../activities/refunds/refundWebhooks';
import { webhookTaskQueue } from '../domain/taskQueues';
import { records } from './sessionActivities';
import { webhookDelivery } from './webhookDelivery';

export async function announceRefund(refundId: string, event: RefundAnnouncement): Promise<void> {
  const deliveryId = await records.createRefundWebhookDelivery(refundId, event);
  try {
    await startChild(webhookDelivery, {
      workflowId: deliveryId,
      args: [{ deliveryId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      taskQueue: webhookTaskQueue(workflowInfo().taskQueue),
      // A run continued as new announces again what its predecessor announced: the delivery it finds is sent once.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
