// The operator's view of webhook deliveries: each delivery of a session with every attempt made.
// The delivery workflow and its activities write these tables; this module only reads them.
import type { Queryable } from '../client';

export interface WebhookAttemptView {
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface WebhookDeliveryView {
  id: string;
  sessionId: string;
  event: string;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  createdAt: Date;
  deliveredAt: Date | null;
  attempts: WebhookAttemptView[];
}

interface DeliveryRow {
  id: string;
  session_id: string;
  event: string;
  url: string;
  state: WebhookDeliveryView['state'];
  created_at: Date;
  delivered_at: Date | null;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export async function listWebhookDeliveries(sql: Queryable, sessionId: string): Promise<WebhookDeliveryView[]> {
  const deliveries = await sql<DeliveryRow[]>`
    select id, session_id, event, url, state, created_at, delivered_at
    from webhook_deliveries where session_id = ${sessionId} order by created_at, id`;
  if (deliveries.length === 0) return [];
  const attempts = await sql<AttemptRow[]>`
    select delivery_id, attempt, started_at, status_code, latency_ms, error
    from webhook_attempts where delivery_id in ${sql(deliveries.map((d) => d.id))} order by started_at, id`;
  return deliveries.map((d) => ({
    id: d.id,
    sessionId: d.session_id,
    event: d.event,
    url: d.url,
    state: d.state,
    createdAt: d.created_at,
    deliveredAt: d.delivered_at,
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({ attempt: a.attempt, startedAt: a.started_at, statusCode: a.status_code, latencyMs: a.latency_ms, error: a.error })),
  }));
}

export async function findWebhookDeliverySession(
  sql: Queryable,
  deliveryId: string,
): Promise<{ sessionId: string; state: string } | undefined> {
  const [row] = await sql<
    { session_id: string; state: string }[]
  >`select session_id, state from webhook_deliveries where id = ${deliveryId}`;
  return row && { sessionId: row.session_id, state: row.state };
}
