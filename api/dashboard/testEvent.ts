// "Send test event": a payment.completed payload for a made-up session, signed with the mode's secrets
// exactly as a real delivery is (same headers, same overlap rule), POSTed once, and kept with its outcome.
// It obeys the same target policy as real deliveries (domain/webhooks/webhookTargetPolicy.ts).
import { ulid } from 'ulid';
import { postWebhook } from '../../activities/webhooks/postWebhook';
import { assertWebhookUrl, policyLookup } from '../../activities/webhooks/webhookTarget';
import { findSigningSecrets } from '../../db/repositories/merchants';
import { insertWebhookTestEvent, type WebhookTestEvent } from '../../db/repositories/webhookTestEvents';
import { newWebhookDeliveryId } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import { buildWebhookPayload, webhookBody } from '../../domain/webhooks/webhookPayload';
import { webhookTargetPolicy } from '../../domain/webhooks/webhookTargetPolicy';
import { signingSecrets } from '../../domain/webhooks/webhookSecret';
import { EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signatureHeader } from '../../domain/webhooks/webhookSignature';
import type { AppDeps } from '../context';

export async function sendTestEvent(
  deps: Pick<AppDeps, 'sql' | 'config'>,
  owner: { merchantId: string; mode: Mode },
  url: URL,
): Promise<WebhookTestEvent> {
  const secrets = await findSigningSecrets(deps.sql, owner.merchantId, owner.mode);
  if (!secrets) throw new Error(`merchant ${owner.merchantId} is missing`);
  const id = newWebhookDeliveryId();
  const sentAt = new Date();
  const content = buildWebhookPayload({
    event: 'payment.completed',
    status: 'completed',
    sessionId: `cs_${ulid()}`,
    extTransactionId: 'test-event',
    amountUsdCents: '1000',
    metadata: { test_event: 'true' },
    timestamp: sentAt.toISOString(),
  });
  const body = webhookBody(content, id, owner.mode);
  const policy = webhookTargetPolicy(owner.mode, deps.config.appEnv, deps.config.webhookAllowedPrivateTargets);
  const lookup = policyLookup(policy, deps.config.webhookTimeoutMs);
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    assertWebhookUrl(policy, url);
    ({ statusCode } = await postWebhook(
      url,
      body,
      {
        'user-agent': 'stablecoin-checkout-webhooks/1',
        [IDEMPOTENCY_HEADER]: id,
        [EVENT_HEADER]: 'payment.completed',
        [SIGNATURE_HEADER]: signatureHeader(
          signingSecrets(secrets.current, secrets.previous, secrets.previousUntil, sentAt),
          Math.floor(sentAt.getTime() / 1000),
          body,
        ),
      },
      { timeoutMs: deps.config.webhookTimeoutMs, ...(lookup ? { lookup } : {}) },
    ));
    if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
  }
  const event = { id, url: url.href, sentAt, statusCode, latencyMs: Math.round(performance.now() - started), error };
  await insertWebhookTestEvent(deps.sql, owner, { ...event, body });
  return event;
}
