// Request bodies and parameters of the dashboard's JSON API.
import { z } from '../../domain/wire/validationMessages';
import { isSolanaAddress } from '../../domain/addresses/solana';
import { AccountNumber, Iban, SortCode, SwiftBic } from '../../domain/session/bankAccountFields';
import { CurrencyCode } from '../../domain/session/bankTransfer';
import { CHAINS, TOKENS } from '../../domain/chains/chains';
import { REFUND_STATUSES } from '../../domain/refunds/refundStatus';
import { SESSION_ID_PATTERN } from '../../domain/wire/ids';
import { UNDERPAID_EXPIRY_CHOICES, UsdAmount } from '../../domain/wire/session';
import { IpAllowlistText } from '../../domain/security/ipAllowlist';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/security/signInPolicy';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS } from '../../domain/webhooks/webhookSecret';

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

export const TotpCodeBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Must be the 6-digit code from your authenticator app'),
});

export const KeyParams = ModeParam.extend({ key_id: z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be an API key id (key_…)') });

/** An empty allowlist field means "from any address". */
const AllowedIps = z.union([z.literal('').transform(() => null), IpAllowlistText]);

export const CreateKeyBody = z.object({ label: z.string().trim().max(100).optional(), allowed_ips: AllowedIps.optional() });

export const AllowedIpsBody = z.object({ allowed_ips: AllowedIps });

export const RotateSecretBody = z.object({ overlap_hours: z.number().int().min(0).max(MAX_OVERLAP_HOURS).default(DEFAULT_OVERLAP_HOURS) });

export const SessionParams = ModeParam.extend({ session_id: z.string().regex(SESSION_ID_PATTERN, 'Must be a session id (cs_…)') });

export const RefundsQuery = z.object({
  status: z.union([z.literal('').transform(() => undefined), z.enum(REFUND_STATUSES)]).optional(),
  session_id: z
    .union([z.literal('').transform(() => undefined), z.string().regex(SESSION_ID_PATTERN, 'Must be a session id (cs_…)')])
    .optional(),
});

/** A merchant's refund from a session's detail page: the amount in USD (cents at most), an optional reason. */
export const CreateRefundBody = z.object({
  amount_usd: UsdAmount,
  reason: z.string().trim().min(1).max(500).optional(),
  /** Made by the page once per form, so a retried submit finds the refund the first one made. */
  idempotency_key: z.string().regex(/^[0-9a-f-]{36}$/, 'Must be a UUID'),
});

/** The deposit to credit to the session: its chain, transaction and log (or instruction) index, as the detail lists it. */
export const CreditDepositBody = z.object({
  chain: z.enum(CHAINS),
  tx_hash: z.string().min(1).max(200),
  log_index: z.number().int().min(0),
});

export const DeliveryParams = ModeParam.extend({
  delivery_id: z.string().regex(/^wh_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a webhook delivery id (wh_…)'),
});

export const TestEventBody = z.object({ url: z.url({ protocol: /^https?$/ }).max(2048) });

export const SettingsBody = z.object({
  tolerance_bps: z.number().int().min(0).max(10_000),
  tolerance_min_cents: z.number().int().min(0).max(1_000_000),
  session_lifetime_minutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
  supported_tokens: z
    .record(z.enum(TOKENS), z.array(z.enum(CHAINS)))
    .refine((pairs) => Object.values(pairs).some((chains) => chains.length > 0), 'Must accept at least one token on one chain'),
  underpaid_expiry: z.enum(UNDERPAID_EXPIRY_CHOICES).optional(),
});

export const SettlementWalletBody = z.object({
  settlement_wallet: z.string().trim().refine(isSolanaAddress, 'Must be a Solana address (base58 of 32 bytes)'),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

const Text = z.string().trim().min(1).max(200);
const optionalField = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => undefined), schema]).optional();

/** The fields and checks of `checkout-admin bank add`, in the dashboard's spelling. */
export const BankAccountBody = z
  .object({
    currency: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(CurrencyCode),
    account_name: Text,
    bank_name: Text,
    iban: optionalField(Iban),
    swift_bic: optionalField(SwiftBic),
    account_number: optionalField(AccountNumber),
    sort_code: optionalField(SortCode),
  })
  .refine((o) => o.iban !== undefined || o.account_number !== undefined, {
    message: 'Give an IBAN or an account number: a customer needs one to pay',
  });

export const BankAccountParams = z.object({
  bank_account_id: z.string().regex(/^ba_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a bank account id (ba_…)'),
});
