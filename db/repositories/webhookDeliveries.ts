// webhook_deliveries and webhook_attempts: one delivery per event of one status change (its `wh_` id is the
// receiver's idempotency key, stable across retries and redeliveries), and one row per HTTP attempt.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

/** Idempotent on (session, status version, event): a second insert returns the first delivery's id. */
export async function insertWebhookDelivery(
  sql: Queryable,
  delivery: { id: string; sessionId: string; event: string; statusVersion: number; url: string; body: string },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    with inserted as (
      insert into webhook_deliveries (id, session_id, event, status_version, url, body)
      values (${delivery.id}, ${delivery.sessionId}, ${delivery.event}, ${delivery.statusVersion}, ${delivery.url}, ${delivery.body})
      on conflict (session_id, status_version, event) where refund_id is null do nothing
      returning id)
    select id from inserted
    union all
    select id from webhook_deliveries
    where session_id = ${delivery.sessionId} and status_version = ${delivery.statusVersion} and event = ${delivery.event}
      and refund_id is null
    limit 1`;
  return row!.id;
}

/**
 * A refund's event, delivered as its session's (docs/refunds.md#webhooks). Idempotent on (refund, event): a second
 * insert returns the first delivery's id. Its status_version is the session's at the time, which orders it among
 * the session's own deliveries.
 */
export async function insertRefundWebhookDelivery(
  sql: Queryable,
  delivery: { id: string; refundId: string; event: string; url: string; body: string },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    with inserted as (
      insert into webhook_deliveries (id, session_id, refund_id, event, status_version, url, body)
      select ${delivery.id}, s.id, r.id, ${delivery.event}, s.status_version, ${delivery.url}, ${delivery.body}
      from refunds r join sessions s on s.id = r.session_id where r.id = ${delivery.refundId}
      on conflict (refund_id, event) where refund_id is not null do nothing
      returning id)
    select id from inserted
    union all
    select id from webhook_deliveries where refund_id = ${delivery.refundId} and event = ${delivery.event}
    limit 1`;
  if (!row) throw new Error(`no refund ${delivery.refundId} to announce`);
  return row.id;
}

/** Given up: a delivered one stays delivered. */
export async function setWebhookDeliveryFailed(sql: Queryable, deliveryId: string): Promise<void> {
  await sql`update webhook_deliveries set state = 'failed' where id = ${deliveryId} and state = 'pending'`;
}

export async function setWebhookDeliveryDelivered(sql: Queryable, deliveryId: string, at: Date): Promise<void> {
  await sql`update webhook_deliveries set state = 'delivered', delivered_at = ${at} where id = ${deliveryId}`;
}

/** A delivery with what sending it needs: its session's mode and merchant, and that merchant's signing secrets. */
export interface WebhookDeliveryToSend {
  id: string;
  event: string;
  url: string;
  body: string;
  mode: Mode;
  merchant_id: string;
  webhook_secret_test: string;
  webhook_secret_live: string;
  /** The secret being rotated out, while its overlap lasts. */
  previous_secret: string | null;
  previous_until: Date | null;
}

export async function findWebhookDeliveryToSend(sql: Queryable, deliveryId: string): Promise<WebhookDeliveryToSend | undefined> {
  const [delivery] = await sql<WebhookDeliveryToSend[]>`
    select d.id, d.event, d.url, d.body, s.mode, s.merchant_id, m.webhook_secret_test, m.webhook_secret_live,
      case when s.mode = 'live' then m.webhook_secret_live_previous else m.webhook_secret_test_previous end as previous_secret,
      case when s.mode = 'live' then m.webhook_secret_live_previous_until else m.webhook_secret_test_previous_until end as previous_until
    from webhook_deliveries d join sessions s on s.id = d.session_id join merchants m on m.id = s.merchant_id
    where d.id = ${deliveryId}`;
  return delivery;
}

/** Numbered per delivery, not by Temporal's attempt: a redelivery is a new workflow that starts again at 1. */
export async function insertWebhookAttempt(
  sql: Queryable,
  attempt: { deliveryId: string; startedAt: Date; statusCode: number | null; latencyMs: number; error: string | null },
): Promise<void> {
  await sql`
    insert into webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
    select ${attempt.deliveryId}, coalesce(max(attempt), 0) + 1, ${attempt.startedAt}, ${attempt.statusCode}, ${attempt.latencyMs}, ${attempt.error}
    from webhook_attempts where delivery_id = ${attempt.deliveryId}`;
}
