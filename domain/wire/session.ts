// Request and response shapes of checkout sessions and transactions (docs/api.md#sessions-and-transactions),
// shared by the API (validation), the workflow (its input) and the tests (shape checks).
import { CHAINS, TOKENS, type TokenChainPairs } from '../chains/chains';
import { MERCHANT_ID_PATTERN, SESSION_ID_PATTERN } from './ids';
import { centsToUsd } from '../money/money';
import { SESSION_STATUSES, type SessionStatus } from './status';
import { z } from './validationMessages';

export const MAX_AMOUNT_USD_CENTS = 9_999_999_999n;
export const MAX_AMOUNT_USD = centsToUsd(MAX_AMOUNT_USD_CENTS);

// multipleOf rather than a refinement, so /openapi.json states the rule too (zod compares decimal digits,
// not floating-point remainders).
export const MAX_MERCHANT_AMOUNT = 99_999_999_999;
export const UsdAmount = z.number().positive().max(MAX_AMOUNT_USD).multipleOf(0.01, 'Number must have at most 2 decimal places');

export const Timestamp = z.iso.datetime({ offset: false });

const MetadataValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);
/** Stripe's limits: 50 keys of at most 40 characters, scalar values. */
export const Metadata = z
  .record(z.string().min(1).max(40), MetadataValue)
  .refine((value) => Object.keys(value).length <= 50, 'Metadata can hold at most 50 keys');
export type Metadata = z.infer<typeof Metadata>;

export const WebhookUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname }).max(2048);

export const CreateSessionRequest = z
  .object({
    merchant_id: z.string().regex(MERCHANT_ID_PATTERN, 'Must be a merchant id of the form mer_<ULID>'),
    transaction_id: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[\x21-\x7e]*$/, 'Must be printable ASCII without spaces'),
    amount_usd: UsdAmount,
    webhook_url: WebhookUrl,
    merchant_currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'Must be an ISO 4217 currency code such as EUR')
      .optional(),
    // Bounded so that 4 decimals stay exact in a double (10^11 × 10^4 < 2^53).
    merchant_amount: z
      .number()
      .positive()
      .max(MAX_MERCHANT_AMOUNT)
      .multipleOf(0.0001, 'Number must have at most 4 decimal places')
      .optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.merchant_currency !== undefined && body.merchant_amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['merchant_amount'], message: 'Required when merchant_currency is given' });
    }
    if (body.merchant_amount !== undefined && body.merchant_currency === undefined) {
      ctx.addIssue({ code: 'custom', path: ['merchant_currency'], message: 'Required when merchant_amount is given' });
    }
  });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CreateSessionResponse = z
  .object({
    session_id: z.string(),
    checkout_url: z.url(),
    checkout_url_with_token: z.url(),
    expires_at: Timestamp,
    created_at: Timestamp,
  })
  .strict();
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

export const TokenChainSetSchema = z
  .object({
    tokens: z.partialRecord(z.enum(TOKENS), z.object({ chain: z.array(z.enum(CHAINS)) }).strict()),
  })
  .strict();

export const SupportedMethods = z.object({ crypto: z.boolean(), bank: z.boolean() }).strict();
export type SupportedMethods = z.infer<typeof SupportedMethods>;

export const CheckoutSession = z
  .object({
    session_id: z.string(),
    merchant_id: z.string(),
    transaction_id: z.string(),
    amount_usd: z.number(),
    merchant_currency: z.string().optional(),
    merchant_amount: z.number().optional(),
    status: z.enum(SESSION_STATUSES),
    supported_methods: SupportedMethods,
    supported_tokens: TokenChainSetSchema,
    unsupported_tokens: TokenChainSetSchema,
    expires_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
    metadata: z.record(z.string(), MetadataValue),
  })
  .strict();
export type CheckoutSession = z.infer<typeof CheckoutSession>;

export const Transaction = z
  .object({
    transaction_id: z.string(),
    merchant_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    ext_transaction_id: z.string(),
    session_id: z.string(),
    expires_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();
export type Transaction = z.infer<typeof Transaction>;

export const SessionIdParam = z.object({ session_id: z.string().regex(SESSION_ID_PATTERN, 'Must be a session id of the form cs_<ULID>') });
export const TransactionLookup = z.object({
  transaction_id: z.string().min(1).max(255),
  by_ext_transaction_id: z.enum(['true', 'false']).optional(),
});

export type Mode = 'test' | 'live';

/** What a merchant chose for a session still underpaid at its expiry: settle what arrived, or refund it all. */
export const UNDERPAID_EXPIRY_CHOICES = ['settle', 'refund'] as const;
export type UnderpaidExpiry = (typeof UNDERPAID_EXPIRY_CHOICES)[number];

/**
 * Everything the read model holds about a session at creation. It is also the workflow's input, so the
 * workflow can write the read model itself should the API's own write be lost after the workflow started.
 * Amounts are strings of integers: workflow payloads are JSON, which has no bigint.
 */
export interface SessionRecord {
  sessionId: string;
  transactionId: string;
  merchantId: string;
  mode: Mode;
  extTransactionId: string;
  amountUsdCents: string;
  merchantCurrency?: string;
  merchantAmount?: string;
  webhookUrl: string;
  metadata: Metadata;
  supportedMethods: SupportedMethods;
  supportedTokens: TokenChainPairs;
  /** The merchant's amount tolerance when the session was created: basis points, with a floor in cents. */
  tolerance: { bps: number; minCents: string };
  /** How long after closing the session still records (never credits) deposits, for refunds. */
  lateDepositWatchHours: number;
  /** Deposits worth less are dust, kept for a refund (default sessionLedger.ts DEFAULT_MINIMUM_DEPOSIT_CENTS; absent on older sessions). */
  minimumDepositCents?: string;
  /** The merchant's choice for an underpaid session at expiry when the session was created (absent on older sessions: settle). */
  underpaidExpiry?: UnderpaidExpiry;
  createdAt: string;
  expiresAt: string;
}

export interface SessionStatusChange {
  sessionId: string;
  status: SessionStatus;
  /** Workflow time of the change, so a retried write stores the same instant. */
  at: string;
  /** Monotonic per session: the read model ignores a write older than what it holds. */
  version: number;
  /** Why the workflow moved the session, for the merchant's timeline. */
  reason?: string;
}
