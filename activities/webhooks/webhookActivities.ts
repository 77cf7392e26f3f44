// Webhook deliveries: one row per event of one status change (its `wh_` id is the receiver's
// idempotency key, stable across retries and redeliveries), and one row per HTTP attempt. The attempts run
// on their own task queue and worker (worker/createWebhookWorker.ts), never beside payment work.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { newWebhookDeliveryId } from '../../domain/ids';
import { signingSecrets } from '../../domain/webhookSecret';
import type { Mode } from '../../domain/session';
import { webhookTargetPolicy } from '../../domain/webhookTargetPolicy';
import { webhookBody, type WebhookContent } from '../../domain/webhookPayload';
import { EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signatureHeader } from '../../domain/webhookSignature';
import { postWebhook } from './postWebhook';
import { recordWebhookAttempt } from './webhookMetrics';
import { assertWebhookUrl, policyLookup, WebhookTargetRefusedError } from './webhookTarget';

export const WEBHOOK_TARGET_REFUSED = 'WebhookTargetRefused';

export interface WebhookDeps {
  sql: Sql;
  timeoutMs: number;
  targets: WebhookTargetSettings;
  /** Deliveries of one merchant this process runs at once; more wait their turn in Temporal, holding no slot. */
  maxInFlightPerMerchant: number;
  now?: () => Date;
}

/** What decides which targets deliveries may reach (domain/webhookTargetPolicy.ts). */
export interface WebhookTargetSettings {
  appEnv: string;
  allowedPrivateTargets: readonly string[];
}

export interface NewWebhookDelivery {
  sessionId: string;
  mode: Mode;
  statusVersion: number;
  url: string;
  content: WebhookContent;
}

interface DeliveryRow {
  id: string;
  event: string;
  url: string;
  body: string;
  mode: Mode;
  merchant_id: string;
  webhook_secret_test: string;
  webhook_secret_live: string;
  /** The secret being rotated out, while its overlap lasts (db/migrations/0001_baseline.sql). */
  previous_secret: string | null;
  previous_until: Date | null;
}

export const WEBHOOK_MERCHANT_BUSY = 'WebhookMerchantBusy';
/** How soon a delivery turned away by its merchant's cap is tried again (not an attempt: nothing was sent). */
const MERCHANT_BUSY_RETRY = '15 seconds';

/** What the session workflows' worker runs: writing a delivery, and marking one given up. */
export function createWebhookRecords(deps: { sql: Sql }) {
  return {
    /** Idempotent on (session, status version, event): a retried call returns the first delivery's id. */
    async createWebhookDelivery(delivery: NewWebhookDelivery): Promise<string> {
      const id = newWebhookDeliveryId();
      const event = delivery.content.event;
      const [row] = await deps.sql<{ id: string }[]>`
        with inserted as (
          insert into webhook_deliveries (id, session_id, event, status_version, url, body)
          values (${id}, ${delivery.sessionId}, ${event}, ${delivery.statusVersion}, ${delivery.url}, ${webhookBody(delivery.content, id, delivery.mode)})
          on conflict (session_id, status_version, event) do nothing
          returning id)
        select id from inserted
        union all
        select id from webhook_deliveries
        where session_id = ${delivery.sessionId} and status_version = ${delivery.statusVersion} and event = ${event}
        limit 1`;
      return row!.id;
    },

    async markWebhookFailed(deliveryId: string): Promise<void> {
      await deps.sql`update webhook_deliveries set state = 'failed' where id = ${deliveryId} and state = 'pending'`;
    },
  };
}

/** What the webhook worker runs: the HTTP attempts. */
export function createWebhookDeliveries(deps: WebhookDeps) {
  const now = deps.now ?? (() => new Date());
  const inFlight = new Map<string, number>();
  return {
    /** One attempt; a non-2xx answer or a network error throws, and Temporal retries on its schedule. */
    async deliverWebhook(deliveryId: string): Promise<number> {
      const [delivery] = await deps.sql<DeliveryRow[]>`
        select d.id, d.event, d.url, d.body, s.mode, s.merchant_id, m.webhook_secret_test, m.webhook_secret_live,
          case when s.mode = 'live' then m.webhook_secret_live_previous else m.webhook_secret_test_previous end as previous_secret,
          case when s.mode = 'live' then m.webhook_secret_live_previous_until else m.webhook_secret_test_previous_until end as previous_until
        from webhook_deliveries d join sessions s on s.id = d.session_id join merchants m on m.id = s.merchant_id
        where d.id = ${deliveryId}`;
      if (!delivery) throw ApplicationFailure.nonRetryable(`webhook delivery ${deliveryId} does not exist`, 'WebhookDeliveryMissing');
      const running = inFlight.get(delivery.merchant_id) ?? 0;
      if (running >= deps.maxInFlightPerMerchant) {
        throw ApplicationFailure.create({
          type: WEBHOOK_MERCHANT_BUSY,
          message: `merchant already has ${running} webhook deliveries in flight`,
          nextRetryDelay: MERCHANT_BUSY_RETRY,
        });
      }
      inFlight.set(delivery.merchant_id, running + 1);
      try {
        return await attempt(delivery);
      } finally {
        const left = (inFlight.get(delivery.merchant_id) ?? 1) - 1;
        if (left === 0) inFlight.delete(delivery.merchant_id);
        else inFlight.set(delivery.merchant_id, left);
      }
    },
  };

  /** One HTTP attempt, recorded; a non-2xx answer or a network error throws for Temporal to retry. */
  async function attempt(delivery: DeliveryRow): Promise<number> {
    const deliveryId = delivery.id;
    const startedAt = now();
    const started = performance.now();
    // Numbered per delivery, not by Temporal's attempt: a redelivery is a new workflow that starts again at 1.
    const record = (statusCode: number | null, error: string | null) => deps.sql`
      insert into webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
      select ${deliveryId}, coalesce(max(attempt), 0) + 1, ${startedAt}, ${statusCode}, ${Math.round(performance.now() - started)}, ${error}
      from webhook_attempts where delivery_id = ${deliveryId}`;

    const url = new URL(delivery.url);
    const policy = webhookTargetPolicy(delivery.mode, deps.targets.appEnv, deps.targets.allowedPrivateTargets);
    const lookup = policyLookup(policy, deps.timeoutMs);
    const secret = delivery.mode === 'live' ? delivery.webhook_secret_live : delivery.webhook_secret_test;
    // A secret being rotated out signs too until its overlap ends, so receivers holding it still verify.
    const secrets = signingSecrets(secret, delivery.previous_secret, delivery.previous_until, startedAt);
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    let statusCode: number;
    try {
      assertWebhookUrl(policy, url);
      ({ statusCode } = await postWebhook(
        url,
        delivery.body,
        {
          'user-agent': 'stablecoin-checkout-webhooks/1',
          [IDEMPOTENCY_HEADER]: delivery.id,
          [EVENT_HEADER]: delivery.event,
          [SIGNATURE_HEADER]: signatureHeader(secrets, timestamp, delivery.body),
        },
        { timeoutMs: deps.timeoutMs, lookup, signal: Context.current().cancellationSignal },
      ));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await record(null, message);
      const refused = error instanceof WebhookTargetRefusedError;
      recordWebhookAttempt(deliveryId, refused ? 'refused' : 'network_error', null);
      if (refused) throw ApplicationFailure.nonRetryable(message, WEBHOOK_TARGET_REFUSED);
      throw ApplicationFailure.retryable(`delivery failed: ${message}`, 'WebhookDeliveryFailed');
    }
    if (statusCode < 200 || statusCode >= 300) {
      await record(statusCode, `HTTP ${statusCode}`);
      recordWebhookAttempt(deliveryId, 'http_error', statusCode);
      throw ApplicationFailure.retryable(`receiver answered HTTP ${statusCode}`, 'WebhookDeliveryFailed');
    }
    await record(statusCode, null);
    recordWebhookAttempt(deliveryId, 'delivered', statusCode);
    await deps.sql`update webhook_deliveries set state = 'delivered', delivered_at = ${now()} where id = ${deliveryId}`;
    return statusCode;
  }
}

export type WebhookActivities = ReturnType<typeof createWebhookRecords> & ReturnType<typeof createWebhookDeliveries>;
