// Sending a webhook delivery again, for the admin CLI and the dashboard alike: the webhookDelivery workflow
// runs once more for the same wh_ id, which receivers use as their idempotency key.
import type { Client } from '@temporalio/client';
import { ulid } from 'ulid';
import { webhookTaskQueue } from '../domain/taskQueues';
import { WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryInput } from '../workflows/messages';

export async function startRedelivery(
  temporal: Client,
  sessionTaskQueue: string,
  deliveryId: string,
): Promise<{ workflowId: string; runId: string }> {
  // A fresh workflow id: the original delivery workflow (id = the wh_ id) may still be retrying or may have
  // closed, and either way its id cannot start a second run.
  const workflowId = `${deliveryId}-redeliver-${ulid()}`;
  const args: [WebhookDeliveryInput] = [{ deliveryId }];
  const handle = await temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
    workflowId,
    taskQueue: webhookTaskQueue(sessionTaskQueue),
    args,
  });
  return { workflowId, runId: handle.firstExecutionRunId };
}
