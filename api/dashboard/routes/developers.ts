// The Developers page: API keys of the chosen mode (create, shown once; revoke; IP allowlist) and the
// mode's webhook signing secret (rotate with an overlap), and signed test events with their outcomes. The same repositories as the admin CLI.
import type Router from '@koa/router';
import {
  createApiKey,
  findApiKeySummary,
  listApiKeys,
  revokeApiKey,
  setApiKeyAllowedIps,
  type ApiKeySummary,
} from '../../../db/repositories/apiKeys';
import { rotateWebhookSecret } from '../../../db/repositories/merchants';
import { listWebhookTestEvents, type WebhookTestEvent } from '../../../db/repositories/webhookTestEvents';
import type { Mode } from '../../../domain/wire/session';
import { newWebhookSecret, previousSecretUntil } from '../../../domain/webhooks/webhookSecret';
import type { AppDeps } from '../../context';
import { NotFoundError } from '../../errors';
import { validated } from '../../middlewares/validated';
import { auditUserAction } from '../audit';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { AllowedIpsBody, CreateKeyBody, KeyParams, ModeParam, RotateSecretBody, TestEventBody } from '../schema';
import { sendTestEvent } from '../testEvent';

const keyJson = (key: ApiKeySummary) => ({
  key_id: key.id,
  key: `${key.prefix}…${key.last4}`,
  label: key.label,
  allowed_ips: key.allowedIps,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

const testEventJson = (e: WebhookTestEvent) => ({
  delivery_id: e.id,
  url: e.url,
  sent_at: e.sentAt.toISOString(),
  status_code: e.statusCode,
  latency_ms: e.latencyMs,
  error: e.error,
});

export function registerDeveloperRoutes(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql } = deps;

  /** A key of the signed-in merchant in this mode; any other key does not exist here. */
  async function ownKey(ctx: DashboardContext, mode: Mode, keyId: string): Promise<ApiKeySummary> {
    const key = await findApiKeySummary(sql, keyId);
    if (!key || key.merchantId !== signedInUser(ctx).user.merchantId || key.mode !== mode) throw new NotFoundError('API key not found');
    return key;
  }

  router.get(
    '/api/:mode/keys',
    validated({ params: ModeParam }, async (ctx: DashboardContext, { params }) => {
      const keys = await listApiKeys(sql, signedInUser(ctx).user.merchantId);
      ctx.body = { data: keys.filter((k) => k.mode === params.mode).map(keyJson) };
    }),
  );

  router.post(
    '/api/:mode/keys',
    validated({ params: ModeParam, body: CreateKeyBody }, async (ctx: DashboardContext, { params, body }) => {
      const auth = signedInUser(ctx);
      const label = body.label || undefined;
      const { id, raw } = await createApiKey(sql, auth.user.merchantId, params.mode, label);
      if (body.allowed_ips) await setApiKeyAllowedIps(sql, id, body.allowed_ips);
      await auditUserAction(deps, auth, params.mode, 'api_key.create', {
        key_id: id,
        label: label ?? null,
        allowed_ips: body.allowed_ips ?? null,
      });
      ctx.status = 201;
      ctx.body = { data: { ...keyJson((await findApiKeySummary(sql, id))!), api_key: raw } };
    }),
  );

  router.post(
    '/api/:mode/keys/:key_id/revoke',
    validated({ params: KeyParams }, async (ctx: DashboardContext, { params }) => {
      const auth = signedInUser(ctx);
      await ownKey(ctx, params.mode, params.key_id);
      if (await revokeApiKey(sql, params.key_id))
        await auditUserAction(deps, auth, params.mode, 'api_key.revoke', { key_id: params.key_id });
      ctx.body = { data: keyJson(await ownKey(ctx, params.mode, params.key_id)) };
    }),
  );

  router.put(
    '/api/:mode/keys/:key_id/allowed-ips',
    validated({ params: KeyParams, body: AllowedIpsBody }, async (ctx: DashboardContext, { params, body }) => {
      const auth = signedInUser(ctx);
      const before = await ownKey(ctx, params.mode, params.key_id);
      await setApiKeyAllowedIps(sql, params.key_id, body.allowed_ips);
      await auditUserAction(deps, auth, params.mode, 'api_key.allowed_ips', {
        key_id: params.key_id,
        from: before.allowedIps,
        to: body.allowed_ips,
      });
      ctx.body = { data: keyJson(await ownKey(ctx, params.mode, params.key_id)) };
    }),
  );

  router.post(
    '/api/:mode/webhook-secret/rotate',
    validated({ params: ModeParam, body: RotateSecretBody }, async (ctx: DashboardContext, { params, body }) => {
      const auth = signedInUser(ctx);
      const secret = newWebhookSecret();
      const previousUntil = previousSecretUntil(deps.now?.() ?? new Date(), body.overlap_hours);
      await rotateWebhookSecret(sql, auth.user.merchantId, params.mode, secret, previousUntil);
      await auditUserAction(deps, auth, params.mode, 'webhook_secret.rotate', { overlap_hours: body.overlap_hours });
      ctx.body = { data: { webhook_secret: secret, previous_secret_valid_until: previousUntil?.toISOString() ?? null } };
    }),
  );

  router.get(
    '/api/:mode/test-events',
    validated({ params: ModeParam }, async (ctx: DashboardContext, { params }) => {
      ctx.body = {
        data: (await listWebhookTestEvents(sql, { merchantId: signedInUser(ctx).user.merchantId, mode: params.mode })).map(testEventJson),
      };
    }),
  );

  router.post(
    '/api/:mode/test-events',
    validated({ params: ModeParam, body: TestEventBody }, async (ctx: DashboardContext, { params, body }) => {
      const auth = signedInUser(ctx);
      const event = await sendTestEvent(deps, { merchantId: auth.user.merchantId, mode: params.mode }, new URL(body.url));
      await auditUserAction(deps, auth, params.mode, 'webhook.test_event', {
        url: event.url,
        delivery_id: event.id,
        status_code: event.statusCode,
      });
      ctx.status = 201;
      ctx.body = { data: testEventJson(event) };
    }),
  );
}
