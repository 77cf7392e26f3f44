// Request bodies and parameters of the dashboard's JSON API.
import { z } from '../../domain/validationMessages';
import { SESSION_ID_PATTERN } from '../../domain/ids';
import { IpAllowlistText } from '../../domain/ipAllowlist';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/signInPolicy';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS } from '../../domain/webhookSecret';

export const ModeParam = z.object({ mode: z.enum(['test', 'live']) });

const Email = z.email().max(254);
const Password = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);

export const SignInBody = z.object({
  email: Email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  totp_code: z.string().trim().max(10).optional(),
});

export const AcceptInviteBody = z.object({ token: z.string().min(20).max(100), password: Password });

export const InviteBody = z.object({ email: Email });

export const TotpCodeBody = z.object({ code: z.string().trim().regex(/^\d{6}$/, 'Must be the 6-digit code from your authenticator app') });

export const KeyParams = ModeParam.extend({ key_id: z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be an API key id (key_…)') });

/** An empty allowlist field means "from any address". */
const AllowedIps = z.union([z.literal('').transform(() => null), IpAllowlistText]);

export const CreateKeyBody = z.object({ label: z.string().trim().max(100).optional(), allowed_ips: AllowedIps.optional() });

export const AllowedIpsBody = z.object({ allowed_ips: AllowedIps });

export const RotateSecretBody = z.object({ overlap_hours: z.number().int().min(0).max(MAX_OVERLAP_HOURS).default(DEFAULT_OVERLAP_HOURS) });

export const SessionParams = ModeParam.extend({ session_id: z.string().regex(SESSION_ID_PATTERN, 'Must be a session id (cs_…)') });

export const DeliveryParams = ModeParam.extend({ delivery_id: z.string().regex(/^wh_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a webhook delivery id (wh_…)') });

export const TestEventBody = z.object({ url: z.url({ protocol: /^https?$/ }).max(2048) });
