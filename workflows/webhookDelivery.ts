// Delivers one webhook until the receiver answers 2xx: exponential backoff from ten seconds, at most an
// hour between attempts, for up to three days. A child of the session workflow (abandoned on close, so
// deliveries outlive the session's own history) and the target of operator redeliveries. It runs on the webhook
// queue (worker/createWebhookWorker.ts), as do its attempts: a flood of deliveries never queues ahead of a session.
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/webhookActivities';
import type { WebhookDeliveryInput } from './messages';
import { HEARTBEAT_TIMEOUT } from './sessionActivities';

export const WEBHOOK_RETRY = {
  // Also how soon an attempt cut off by a dead webhook worker is made again (docs/operations.md).
  initialInterval: '10 seconds',
  backoffCoefficient: 2,
  maximumInterval: '1 hour',
  giveUpAfter: '3 days',
} as const;

/** The attempts, on the delivery's own queue: the webhook worker's (domain/taskQueues.ts). */
const { deliverWebhook } = proxyActivities<WebhookActivities>({
  // Above WEBHOOK_TIMEOUT_MS (at most 60 s), which bounds each attempt from inside; the attempt beats while it waits.
  startToCloseTimeout: '90 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  scheduleToCloseTimeout: WEBHOOK_RETRY.giveUpAfter,
  retry: {
    initialInterval: WEBHOOK_RETRY.initialInterval,
    backoffCoefficient: WEBHOOK_RETRY.backoffCoefficient,
    maximumInterval: WEBHOOK_RETRY.maximumInterval,
    nonRetryableErrorTypes: ['WebhookTargetRefused', 'WebhookDeliveryMissing'],
  },
});

const { markWebhookFailed } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumInterval: '1 minute' },
});

export async function webhookDelivery(input: WebhookDeliveryInput): Promise<'delivered' | 'failed'> {
  try {
    await deliverWebhook(input.deliveryId);
    return 'delivered';
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    await markWebhookFailed(input.deliveryId);
    return 'failed';
  }
}
