// The merchant's dashboard users, and inviting a colleague (a one-time link, shown to the inviter once).
import type Router from '@koa/router';
import { recordAudit } from '../../../db/repositories/auditEvents';
import { listMerchantUsers } from '../../../db/repositories/merchantUsers';
import { inviteUser } from '../../../db/repositories/userInvites';
import { invitationUrl } from '../../../domain/security/invitation';
import { normalizeEmail } from '../../../domain/security/signInPolicy';
import type { AppDeps } from '../../context';
import { ConflictError } from '../../errors';
import { validated } from '../../middlewares/validated';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { InviteBody } from '../schema';

export function registerUserRoutes(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql } = deps;

  router.get('/api/users', async (ctx) => {
    const { user } = signedInUser(ctx);
    const users = await listMerchantUsers(sql, user.merchantId);
    ctx.body = {
      data: users.map((u) => ({
        id: u.id,
        email: u.email,
        accepted: u.passwordHash !== null,
        totp_enabled: u.totpEnabled,
        created_at: u.createdAt.toISOString(),
      })),
    };
  });

  router.post(
    '/api/users',
    validated({ body: InviteBody }, async (ctx: DashboardContext, { body }) => {
      const { user } = signedInUser(ctx);
      const email = normalizeEmail(body.email);
      const invited = await inviteUser(sql, user.merchantId, email);
      if (!invited) throw new ConflictError('That email address already has a dashboard account');
      await recordAudit(sql, {
        actor: { kind: 'user', id: user.id },
        merchantId: user.merchantId,
        mode: null,
        action: 'user.invite',
        changes: { email, user_id: invited.userId },
      });
      ctx.status = 201;
      ctx.body = { data: { user_id: invited.userId, email, invitation_url: invitationUrl(deps.config.publicBaseUrl, invited.token) } };
    }),
  );
}
