// `user invite`: the first dashboard user of a merchant (later ones are invited from the dashboard itself).
// Prints a one-time sign-up link; only the hash of its token is stored.
// `user reset-totp`: the way back for a user who lost their authenticator, once the operator has checked who asks.
import { recordAudit } from '../../db/repositories/auditEvents';
import { deleteUserSessions } from '../../db/repositories/dashboardSessions';
import { findMerchant } from '../../db/repositories/merchants';
import { disableTotp, findUserByEmail } from '../../db/repositories/merchantUsers';
import { inviteUser } from '../../db/repositories/userInvites';
import { invitationUrl } from '../../domain/security/invitation';
import { normalizeEmail } from '../../domain/security/signInPolicy';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, MerchantIdOption, type CommandGroup } from './cli';

const invite = defineCommand({
  name: 'invite',
  summary: 'invite a dashboard user of a merchant; prints a one-time sign-up link (valid 7 days)',
  options: {
    merchant: { value: '<mer_…>', description: 'merchant the user belongs to (required)' },
    email: { value: '<address>', description: "the user's email address, their sign-in name (required)" },
  },
  schema: z.object({ merchant: MerchantIdOption, email: z.email().max(254).transform(normalizeEmail) }),
  async run(context, input) {
    const sql = context.sql();
    if (!(await findMerchant(sql, input.merchant))) throw new CliError(`merchant ${input.merchant} does not exist`);
    const invited = await inviteUser(sql, input.merchant, input.email);
    if (!invited) throw new CliError(`${input.email} already has a dashboard account`);
    await recordAudit(sql, {
      actor: { kind: 'operator', id: context.operator.name },
      merchantId: input.merchant,
      mode: null,
      action: 'user.invite',
      changes: { email: input.email, user_id: invited.userId },
    });
    const url = invitationUrl(context.config.publicBaseUrl, invited.token);
    return {
      json: { merchant_id: input.merchant, user_id: invited.userId, email: input.email, invitation_url: url },
      text: [`${input.email} invited to the dashboard of ${input.merchant}. One-time sign-up link (valid 7 days):`, '', `  ${url}`],
      targets: [invited.userId],
    };
  },
});

const resetTotp = defineCommand({
  name: 'reset-totp',
  summary: "remove a dashboard user's TOTP enrolment and sign them out everywhere; they sign in with their password and enrol again",
  options: {
    email: { value: '<address>', description: "the user's email address, their sign-in name (required)" },
  },
  schema: z.object({ email: z.email().max(254).transform(normalizeEmail) }),
  async run(context, input) {
    const sql = context.sql();
    const user = await findUserByEmail(sql, input.email);
    if (!user) throw new CliError(`no dashboard user has the address ${input.email}`);
    // Signed out too: whoever holds the lost device may hold a signed-in browser beside it.
    const signedOut = await sql.begin(async (tx) => {
      await disableTotp(tx, user.id);
      const ended = await deleteUserSessions(tx, user.id);
      await recordAudit(tx, {
        actor: { kind: 'operator', id: context.operator.name },
        merchantId: user.merchantId,
        mode: null,
        action: 'user.totp_reset',
        changes: { email: input.email, user_id: user.id, had_totp: user.totpEnabled, sessions_ended: ended },
      });
      return ended;
    });
    return {
      json: { merchant_id: user.merchantId, user_id: user.id, email: input.email, had_totp: user.totpEnabled, sessions_ended: signedOut },
      text: [
        `${input.email}: TOTP ${user.totpEnabled ? 'removed' : 'was not enabled; nothing to remove'}, ${signedOut} dashboard session(s) ended.`,
        'They sign in with their password and may enrol an authenticator again under Settings.',
      ],
      targets: [user.id],
    };
  },
});

export const userCommands: CommandGroup = { name: 'user', summary: 'merchant dashboard users', commands: [invite, resetTotp] };
