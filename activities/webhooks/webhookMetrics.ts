// Webhook attempt counters, kept in the worker where attempts happen and exported through the Temporal
// runtime's Prometheus endpoint (bin/worker.ts) next to the SDK's own worker metrics. A counter per attempt
// costs nothing at scrape time, unlike counting the ever-growing webhook_attempts table; Prometheus sums the
// worker replicas and its rate() absorbs the reset when a worker restarts.
import { log, metricMeter } from '@temporalio/activity';

export type WebhookAttemptOutcome = 'delivered' | 'http_error' | 'network_error' | 'refused';

/** Counts one attempt (`checkout_webhook_attempts`, and `checkout_webhook_failures` unless delivered) and logs it. */
export function recordWebhookAttempt(deliveryId: string, outcome: WebhookAttemptOutcome, statusCode: number | null): void {
  metricMeter.createCounter('checkout_webhook_attempts', 'attempts', 'Webhook HTTP delivery attempts').add(1, { outcome });
  if (outcome !== 'delivered') {
    metricMeter.createCounter('checkout_webhook_failures', 'attempts', 'Webhook delivery attempts that failed').add(1, { outcome });
  }
  // The activity logger adds workflowId, activityId and taskQueue to the line.
  const fields = { deliveryId, outcome, statusCode };
  if (outcome === 'delivered') log.info('webhook attempt', fields);
  else log.warn('webhook attempt', fields);
}
