// Delivers one webhook until the receiver answers 2xx: exponential backoff from one minute, at most an
// hour between attempts, for up to three days. A child of the session workflow (abandoned on close, so
// deliveries outlive the session's own history) and the target of operator redeliveries.
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/webhookActivities';
import type { WebhookDeliveryInput } from './messages';

export const WEBHOOK_RETRY = {
  initialInterval: '1 minute',
  backoffCoefficient: 2,
  maximumInterval: '1 hour',
  giveUpAfter: '3 days',
} as const;

const { deliverWebhook } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: WEBHOOK_RETRY.giveUpAfter,
  retry: {
    initialInterval: WEBHOOK_RETRY.initialInterval,
    backoffCoefficient: WEBHOOK_RETRY.backoffCoefficient,
    maximumInterval: WEBHOOK_RETRY.maximumInterval,
    nonRetryableErrorTypes: ['WebhookTargetRefused', 'WebhookDeliveryMissing'],
  },
});

const { markWebhookFailed } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
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
