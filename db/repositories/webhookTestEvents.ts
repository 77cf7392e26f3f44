// Test events sent from the dashboard, each with the one attempt it made.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface WebhookTestEvent {
  id: string;
  url: string;
  sentAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export async function insertWebhookTestEvent(
  sql: Queryable,
  owner: { merchantId: string; mode: Mode },
  event: WebhookTestEvent & { body: string },
): Promise<void> {
  await sql`
    insert into webhook_test_events (id, merchant_id, mode, url, body, sent_at, status_code, latency_ms, error)
    values (${event.id}, ${owner.merchantId}, ${owner.mode}, ${event.url}, ${event.body}, ${event.sentAt}, ${event.statusCode}, ${event.latencyMs}, ${event.error})`;
}

export async function listWebhookTestEvents(sql: Queryable, owner: { merchantId: string; mode: Mode }): Promise<WebhookTestEvent[]> {
  const rows = await sql<
    { id: string; url: string; sent_at: Date; status_code: number | null; latency_ms: number; error: string | null }[]
  >`
    select id, url, sent_at, status_code, latency_ms, error from webhook_test_events
    where merchant_id = ${owner.merchantId} and mode = ${owner.mode} order by sent_at desc, id desc limit 20`;
  return rows.map((r) => ({ id: r.id, url: r.url, sentAt: r.sent_at, statusCode: r.status_code, latencyMs: r.latency_ms, error: r.error }));
}
