// Sign-in, sign-out (this device or everywhere), accepting an invitation, the signed-in user, and TOTP enrolment.
import type Router from '@koa/router';
import { recordAudit } from '../../../db/repositories/auditEvents';
import { deleteDashboardSession, deleteUserSessions, insertDashboardSession } from '../../../db/repositories/dashboardSessions';
import { requireTotpEncryptionKey } from '../../../config/env';
import { enableTotp, findUser, setPasswordHash, setPendingTotpSecret } from '../../../db/repositories/merchantUsers';
import { findMerchant } from '../../../db/repositories/merchants';
import { consumeInvite } from '../../../db/repositories/userInvites';
import { hashToken, newOpaqueToken } from '../../../domain/security/dashboardSession';
import type { AppDeps } from '../../context';
import { BadRequestError } from '../../errors';
import { validated } from '../../middlewares/validated';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { hashPassword } from '../passwords';
import { AcceptInviteBody, SignInBody, TotpCodeBody } from '../schema';
import { clearSessionCookie, setSessionCookie } from '../sessionCookie';
import { signIn } from '../signIn';
import { newTotpSecret, totpCodeValid, totpUri } from '../totp';

export function registerAuthRoutes(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql, config } = deps;

  router.post(
    '/api/sign-in',
    validated({ body: SignInBody }, async (ctx: DashboardContext, { body }) => {
      const outcome = await signIn(deps, body, ctx.ip);
      if (outcome.kind === 'totp-required') {
        ctx.body = { data: { totp_required: true } };
        return;
      }
      setSessionCookie(ctx, config, outcome.sessionToken);
      ctx.body = { data: { signed_in: true } };
    }),
  );

  router.post(
    '/api/invite/accept',
    validated({ body: AcceptInviteBody }, async (ctx: DashboardContext, { body }) => {
      const passwordHash = await hashPassword(body.password);
      const userId = await consumeInvite(sql, hashToken(body.token));
      if (!userId) throw new BadRequestError('This invitation link is unknown, used or expired; ask for a new one');
      await setPasswordHash(sql, userId, passwordHash);
      const user = (await findUser(sql, userId))!;
      const sessionToken = newOpaqueToken();
      await insertDashboardSession(sql, hashToken(sessionToken), user.id, newOpaqueToken());
      await recordAudit(sql, {
        actor: { kind: 'user', id: user.id },
        merchantId: user.merchantId,
        mode: null,
        action: 'user.accept_invite',
        changes: { email: user.email },
      });
      setSessionCookie(ctx, config, sessionToken);
      ctx.body = { data: { signed_in: true } };
    }),
  );

  router.get('/api/me', async (ctx) => {
    const { user, csrfToken } = signedInUser(ctx);
    const merchant = await findMerchant(sql, user.merchantId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      data: {
        user: { id: user.id, email: user.email, totp_enabled: user.totpEnabled },
        merchant: { id: user.merchantId, name: merchant?.name ?? '' },
        csrf_token: csrfToken,
      },
    };
  });

  router.post('/api/sign-out', async (ctx) => {
    const { user, sessionHash } = signedInUser(ctx);
    await deleteDashboardSession(sql, sessionHash);
    await recordAudit(sql, {
      actor: { kind: 'user', id: user.id },
      merchantId: user.merchantId,
      mode: null,
      action: 'user.sign_out',
      changes: {},
    });
    clearSessionCookie(ctx, config);
    ctx.body = { data: { signed_out: true } };
  });

  router.post('/api/sign-out-everywhere', async (ctx) => {
    const { user } = signedInUser(ctx);
    const ended = await deleteUserSessions(sql, user.id);
    await recordAudit(sql, {
      actor: { kind: 'user', id: user.id },
      merchantId: user.merchantId,
      mode: null,
      action: 'user.sign_out_everywhere',
      changes: { sessions_ended: ended },
    });
    clearSessionCookie(ctx, config);
    ctx.body = { data: { sessions_ended: ended } };
  });

  router.post('/api/totp/setup', async (ctx) => {
    const { user } = signedInUser(ctx);
    if (user.totpEnabled) throw new BadRequestError('An authenticator app is already enrolled');
    const { secret, sealed } = newTotpSecret(requireTotpEncryptionKey(config), user.id);
    await setPendingTotpSecret(sql, user.id, sealed);
    ctx.body = { data: { secret, otpauth_uri: totpUri(secret, user.email) } };
  });

  router.post(
    '/api/totp/enable',
    validated({ body: TotpCodeBody }, async (ctx: DashboardContext, { body }) => {
      const { user } = signedInUser(ctx);
      if (user.totpEnabled) throw new BadRequestError('An authenticator app is already enrolled');
      if (!totpCodeValid(requireTotpEncryptionKey(config), user, body.code))
        throw new BadRequestError('That code does not match; check the time on your device and try again');
      await enableTotp(sql, user.id);
      await recordAudit(sql, {
        actor: { kind: 'user', id: user.id },
        merchantId: user.merchantId,
        mode: null,
        action: 'user.totp_enabled',
        changes: {},
      });
      ctx.body = { data: { totp_enabled: true } };
    }),
  );
}
