// Request and response shapes of refunds (docs/refunds.md#api), an extension beyond the interface contract, shared by
// the API (validation), the claim page, the workflow and the tests.
import { CHAINS, TOKENS } from '../chains/chains';
import { REFUND_SOURCES } from '../refunds/refundSource';
import { REFUND_STATUSES } from '../refunds/refundStatus';
import { REFUND_ID_PATTERN, SESSION_ID_PATTERN } from './ids';
import { Timestamp, UsdAmount } from './session';
import { z } from './validationMessages';

export const FEE_POLICIES = ['deducted', 'merchant'] as const;
export type FeePolicy = (typeof FEE_POLICIES)[number];

/** Where a refund goes: an owner address on a chain (for Solana a wallet, never a token account). */
export const RefundDestination = z
  .object({
    chain: z.enum(CHAINS),
    token: z.enum(TOKENS),
    address: z.string().trim().min(1).max(128),
  })
  .strict();
export type RefundDestination = z.infer<typeof RefundDestination>;

/** Trimmed and lower-cased before it is checked, so one address is always spelled one way. */
export const CustomerEmail = z.string().trim().toLowerCase().max(254).pipe(z.email()).meta({
  format: 'email',
  description:
    "Extension: the customer's e-mail address. When e-mail is configured, the customer is sent the claim link now and a reminder three days before the refund expires (docs/refunds.md#e-mail-to-the-customer). Shown to the merchant only.",
});

export const CreateRefundRequest = z
  .object({
    /** Omitted: everything still refundable. */
    amount_usd: UsdAmount.optional(),
    reason: z.string().trim().min(1).max(500).optional(),
    /** Given by the merchant in place of the customer's claim. */
    destination: RefundDestination.optional(),
    /** Pay only once the customer signed, with the wallet that paid, that the destination is theirs. */
    require_sender_proof: z.boolean().optional(),
    fee_policy: z.enum(FEE_POLICIES).optional(),
    customer_email: CustomerEmail.optional(),
  })
  .strict();
export type CreateRefundRequest = z.infer<typeof CreateRefundRequest>;

export const RefundIdParam = z.object({ refund_id: z.string().regex(REFUND_ID_PATTERN, 'Must be a refund id of the form ref_<ULID>') });

/** POST /checkout/refunds/{refund_id}/cancel: the merchant withdraws a refund not yet paid. */
export const CancelRefundRequest = z
  .object({ reason: z.string().trim().min(1).max(500).optional().meta({ description: "Why; kept as the refund's status_reason." }) })
  .strict()
  .optional();
export type CancelRefundRequest = z.infer<typeof CancelRefundRequest>;

export const RefundObject = z
  .object({
    id: z.string().regex(REFUND_ID_PATTERN),
    object: z.literal('refund'),
    livemode: z.boolean(),
    session_id: z.string().regex(SESSION_ID_PATTERN),
    status: z.enum(REFUND_STATUSES),
    status_reason: z.string().nullable(),
    source: z.enum(REFUND_SOURCES),
    /** What the customer is owed, in USD to the micro-unit, before fees. */
    amount_usd: z.number(),
    /** What was owed in the token and chain it arrived in. */
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    amount_base_units: z.string().regex(/^\d+$/),
    fee_policy: z.enum(FEE_POLICIES),
    /** The network fee taken from the refund, once paid. */
    fee_usd: z.number().nullable(),
    destination: RefundDestination.nullable(),
    require_sender_proof: z.boolean(),
    /** The customer's link to claim it, while it waits for a claim. */
    claim_url: z.url().nullable(),
    customer_email: z.string().nullable().meta({
      description:
        "Extension: the address the merchant gave for the customer's e-mails (docs/refunds.md#e-mail-to-the-customer); shown to the merchant only, never in a webhook or on the claim page.",
    }),
    transaction_hash: z.string().nullable(),
    reason: z.string().nullable(),
    expires_at: Timestamp,
    created_at: Timestamp,
    claimed_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
  })
  .strict();
export type RefundObject = z.infer<typeof RefundObject>;

export const RefundListQuery = z
  .object({
    session_id: z.string().regex(SESSION_ID_PATTERN, 'Must be a session id of the form cs_<ULID>').optional(),
    status: z.enum(REFUND_STATUSES).optional(),
    source: z.enum(REFUND_SOURCES).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    /** The last id of the previous page. */
    starting_after: z.string().regex(REFUND_ID_PATTERN, 'Must be a refund id of the form ref_<ULID>').optional(),
  })
  .strict();
export type RefundListQuery = z.infer<typeof RefundListQuery>;

export const RefundList = z.object({ data: z.array(RefundObject), has_more: z.boolean() }).strict();
export type RefundList = z.infer<typeof RefundList>;

/** What the customer sends from the claim page. */
export const RefundClaimRequest = z
  .object({
    destination: RefundDestination,
    /** The customer read the warning that an exchange's deposit address may not credit them. */
    acknowledged_exchange_warning: z.literal(true, 'Confirm that the address is a wallet you control'),
    /** A signature by the wallet that paid over the claim message (docs/refunds.md#proof-of-ownership). */
    sender_proof: z
      .object({ signature: z.string().min(1).max(512) })
      .strict()
      .optional(),
  })
  .strict();
export type RefundClaimRequest = z.infer<typeof RefundClaimRequest>;

/** The claim link's path parameter: `<ref_id>.<mac>`; any other text reads as a link to no refund. */
export const RefundClaimTokenParam = z.object({ token: z.string().min(1).max(200) }).strict();

/** What the claim page shows (GET /refunds/{token}/state, and the answer to a claim). */
export const RefundClaimState = z
  .object({
    refund_id: z.string().regex(REFUND_ID_PATTERN),
    /** As stored, except a refund still waiting for a claim past expires_at, which reads as expired. */
    status: z.enum(REFUND_STATUSES),
    /** What the customer is owed, in USD, before fees. */
    amount_usd: z.number(),
    /** How the money arrived. */
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    /** Where it can be sent: docs/refunds.md#where-a-refund-can-go. */
    routes: z.array(z.object({ chain: z.enum(CHAINS), token: z.enum(TOKENS) }).strict()),
    require_sender_proof: z.boolean(),
    /** The address that paid, on its chain; null when no payment is on record (a bank transfer). */
    sender: z
      .object({ chain: z.enum(CHAINS), address: z.string() })
      .strict()
      .nullable(),
    destination: RefundDestination.nullable(),
    expires_at: Timestamp,
    transaction_hash: z.string().nullable(),
    /** The refund's transaction on a public block explorer, once sent. */
    explorer_url: z.url().nullable(),
  })
  .strict();
export type RefundClaimState = z.infer<typeof RefundClaimState>;
