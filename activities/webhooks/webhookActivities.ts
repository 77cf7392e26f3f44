// Webhook deliveries: one row per event of one status change (its `wh_` id is the receiver's
// idempotency key, stable across retries and redeliveries), and one row per HTTP attempt. The attempts run
// on their own task queue and worker (worker/createWebhookWorker.ts), never beside payment work.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import {
  findWebhookDeliveryToSend,
  insertWebhookAttempt,
  insertWebhookDelivery,
  setWebhookDeliveryDelivered,
  setWebhookDeliveryFailed,
  type WebhookDeliveryToSend,
} from '../../db/repositories/webhookDeliveries';
import { newWebhookDeliveryId } from '../../domain/wire/ids';
import { signingSecrets } from '../../domain/webhooks/webhookSecret';
import type { Mode } from '../../domain/wire/session';
import { webhookTargetPolicy } from '../../domain/webhooks/webhookTargetPolicy';
import { webhookBody, type WebhookContent } from '../../domain/webhooks/webhookPayload';
import { EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signatureHeader } from '../../domain/webhooks/webhookSignature';
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

/** What decides which targets deliveries may reach (domain/webhooks/webhookTargetPolicy.ts). */
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
      return insertWebhookDelivery(deps.sql, {
        id,
        sessionId: delivery.sessionId,
        event,
        statusVersion: delivery.statusVersion,
        url: delivery.url,
        body: webhookBody(delivery.content, id, delivery.mode),
      });
    },

    async markWebhookFailed(deliveryId: string): Promise<void> {
      await setWebhookDeliveryFailed(deps.sql, deliveryId);
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
      const delivery = await findWebhookDeliveryToSend(deps.sql, deliveryId);
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
  async function attempt(delivery: WebhookDeliveryToSend): Promise<number> {
    const deliveryId = delivery.id;
    const startedAt = now();
    const started = performance.now();
    const record = (statusCode: number | null, error: string | null) =>
      insertWebhookAttempt(deps.sql, { deliveryId, startedAt, statusCode, latencyMs: Math.round(performance.now() - started), error });

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
    await setWebhookDeliveryDelivered(deps.sql, deliveryId, now());
    return statusCode;
  }
}

export type WebhookActivities = ReturnType<typeof createWebhookRecords> & ReturnType<typeof createWebhookDeliveries>;
