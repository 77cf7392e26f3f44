// A webhook delivery with every attempt, as the admin CLI's --json and the dashboard show it.
import type { WebhookDeliveryView } from '../db/repositories/webhookHistory';

export const webhookDeliveryJson = (d: WebhookDeliveryView) => ({
  delivery_id: d.id,
  event: d.event,
  url: d.url,
  state: d.state,
  created_at: d.createdAt.toISOString(),
  delivered_at: d.deliveredAt?.toISOString() ?? null,
  attempts: d.attempts.map((a) => ({
    attempt: a.attempt,
    started_at: a.startedAt.toISOString(),
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
  })),
});
