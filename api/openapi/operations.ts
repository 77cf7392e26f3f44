// Every route of the API, described with the very zod schemas its handler validates with and answers in.
// The OpenAPI document and the docs page are generated from this list; a test holds it to the router.
import { z } from 'zod';
import { BankCurrenciesResponse, BankDetailsQuery, BankDetailsResponse } from '../../domain/session/bankTransfer';
import { CancelSessionRequest } from '../../domain/wire/cancel';
import { HostedCheckoutSession } from '../../domain/wire/hostedCheckout';
import { PaymentInstructions, SelectPaymentRequest } from '../../domain/wire/payment';
import { QuoteQuery, QuoteResponse } from '../../domain/wire/quote';
import { RefundClaimRequest, RefundClaimState, RefundClaimTokenParam } from '../../domain/wire/refund';
import {
  CancelRefundRequest,
  CreateRefundRequest,
  RefundIdParam,
  RefundList,
  RefundListQuery,
  RefundObject,
} from '../../domain/wire/refund';
import {
  CheckoutSession,
  CreateSessionRequest,
  CreateSessionResponse,
  SessionIdParam,
  Transaction,
  TransactionLookup,
} from '../../domain/wire/session';
import { MAX_LIST_RANGE_DAYS, SessionListQuery } from '../../domain/wire/sessionListQuery';
import { SessionTokenQuery } from '../../domain/wire/sessionTokenQuery';
import { SimulateRequest, SimulateResponse } from '../../domain/wire/simulate';
import { TokenListQuery, TokenListResponse } from '../../domain/chains/tokenCatalog';

/** Credentials an operation accepts; any one of the listed alternatives suffices. */
export type Auth = 'apiKey' | 'sessionToken';

export interface Operation {
  method: 'get' | 'post';
  /** Router syntax (`:name`); the document writes `{name}`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: 'Checkout' | 'Refunds' | 'Hosted checkout page' | 'Refund claim page' | 'Testing' | 'Service';
  auth: Auth[];
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  success: {
    status: number;
    description: string;
    data?: z.ZodType;
    /** The whole body in place of `{ data }`: a list that carries `has_more` beside its `data`. */
    envelope?: z.ZodType;
    contentType?: 'application/json' | 'text/html' | 'text/javascript' | 'text/css' | 'text/plain';
  };
  /** Other non-error answers: with the success's content (a replay), or none (304). */
  alsoAnswers?: { status: number; description: string; content: 'as success' | 'none' }[];
  /** Error statuses this operation can answer with, besides 500. */
  errors: number[];
  /** Error statuses answered with an HTML page for a person rather than the JSON error body. */
  htmlErrors?: number[];
}

const NOT_MODIFIED = { status: 304, description: 'The If-None-Match ETag is current: no body.', content: 'none' } as const;

// Every authenticated request counts against a rate limit (429): the API key's, or the checkout session's and its merchant's;
// every refused credential against its address's budget of failed authentications (429 too).
const KEY_ERRORS = [401, 403, 429];
const TOKEN_ERRORS = [401, 403, 429];
// A claim link's token is checked before anything else: a forged one reads as no refund (404), and spends its address's budget.
const CLAIM_TOKEN_ERRORS = [404, 429];

const REFUND_EXTENSION = 'An extension beyond the interface contract (docs/refunds.md#api).';

export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/checkout/tokens',
    operationId: 'listTokens',
    summary: 'List supported tokens and chains',
    description:
      'Every token/chain pair: contract (or SPL mint) and decimals on mainnet (live keys) and on the test network (test keys), chain id, confirmations required, average block time and estimated finality. `mainnet: null` marks a pair live keys cannot pay in.',
    tag: 'Checkout',
    auth: ['apiKey'],
    query: TokenListQuery,
    success: { status: 200, description: 'The matching pairs, token-major.', data: TokenListResponse },
    errors: [400, ...KEY_ERRORS],
  },
  {
    method: 'get',
    path: '/checkout/quote',
    operationId: 'getQuote',
    summary: 'Price a USD amount in a token on a chain',
    description:
      'Returns and records a quote (`qt_` id) valid until `expires_at`. Test keys price every stablecoin at exactly 1 USD; live keys use operator-configured prices and answer 503 when none is configured.',
    tag: 'Checkout',
    auth: ['apiKey'],
    query: QuoteQuery,
    success: { status: 200, description: 'The quote.', data: QuoteResponse },
    errors: [400, ...KEY_ERRORS, 503],
  },
  {
    method: 'post',
    path: '/checkout/sessions',
    operationId: 'createSession',
    summary: 'Create a checkout session',
    description:
      'Idempotent on `transaction_id`: the same request again answers 200 with the original session and `Idempotent-Replayed: true`; a different body answers 409.',
    tag: 'Checkout',
    auth: ['apiKey'],
    body: CreateSessionRequest,
    success: { status: 201, description: 'The session was created.', data: CreateSessionResponse },
    alsoAnswers: [
      {
        status: 200,
        description: 'The same request was made before: its session, with `Idempotent-Replayed: true`.',
        content: 'as success',
      },
    ],
    errors: [400, ...KEY_ERRORS, 409, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/checkout/sessions',
    operationId: 'listSessions',
    summary: 'List sessions created in a date range',
    description: `Every session of the key's merchant and mode created in [created_from, created_to), newest first, without pagination, so the range is required and at most ${MAX_LIST_RANGE_DAYS} days. Optional filters: status, chain and token (of the chosen payment), and transaction_id (part of the merchant's own id, any case).`,
    tag: 'Checkout',
    auth: ['apiKey'],
    query: SessionListQuery,
    success: { status: 200, description: 'The matching sessions.', data: z.array(CheckoutSession) },
    errors: [400, ...KEY_ERRORS],
  },
  {
    method: 'post',
    path: '/checkout/sessions/select-payment',
    operationId: 'selectPayment',
    summary: 'Choose token and chain and get the deposit address',
    description:
      "Callable by the merchant server (API key) or the hosted page (session token, which works only for its own session). The pair must be in the session's `supported_tokens`. 409 when the session no longer accepts a selection.",
    tag: 'Hosted checkout page',
    auth: ['apiKey', 'sessionToken'],
    query: SessionTokenQuery,
    body: SelectPaymentRequest,
    success: { status: 200, description: 'Payment instructions.', data: PaymentInstructions },
    errors: [400, ...KEY_ERRORS, 404, 409, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/checkout/sessions/bank-currencies',
    operationId: 'listBankCurrencies',
    summary: 'Currencies the session can be paid in by bank transfer',
    description: 'The session is the one the session token names.',
    tag: 'Hosted checkout page',
    auth: ['sessionToken'],
    query: SessionTokenQuery,
    success: { status: 200, description: 'Distinct ISO 4217 codes, sorted.', data: BankCurrenciesResponse },
    errors: [400, ...TOKEN_ERRORS],
  },
  {
    method: 'get',
    path: '/checkout/sessions/bank-details',
    operationId: 'getBankDetails',
    summary: 'Bank account and reference for a bank transfer',
    description:
      '`currency` may be omitted when exactly one bank currency exists; with several it is required (the 400 lists them). 409 once a payment is under way or the session is closed.',
    tag: 'Hosted checkout page',
    auth: ['sessionToken'],
    query: BankDetailsQuery,
    success: {
      status: 200,
      description: 'Base64 of a JSON object with the account fields, reference, currency and amount_usd.',
      data: BankDetailsResponse,
    },
    errors: [400, ...TOKEN_ERRORS, 409],
  },
  {
    method: 'get',
    path: '/checkout/sessions/current',
    operationId: 'getCurrentSession',
    summary: 'The session of the hosted checkout page',
    description:
      'The session the session token names, as the hosted page shows it: status, amounts, methods and token/chain pairs, expiry, the chosen payment (deposit address, exact amount, amount received and still due, wallet URIs) and the confirmation progress of a deposit under way. Read from the read model; the page polls it.',
    tag: 'Hosted checkout page',
    auth: ['sessionToken'],
    query: SessionTokenQuery,
    success: { status: 200, description: 'The session as the page shows it.', data: HostedCheckoutSession },
    errors: [400, ...TOKEN_ERRORS],
  },
  {
    method: 'get',
    path: '/checkout/sessions/:session_id',
    operationId: 'getSession',
    summary: 'Read a checkout session',
    description: "Another merchant's session, and a session of the other mode (test/live), read as not found.",
    tag: 'Checkout',
    auth: ['apiKey'],
    params: SessionIdParam,
    success: { status: 200, description: 'The session.', data: CheckoutSession },
    errors: [400, ...KEY_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/checkout/sessions/:session_id/cancel',
    operationId: 'cancelSession',
    summary: 'Cancel a checkout session',
    description:
      'Ends a session no payment has arrived for; the optional `reason` is kept in its history. Answers the session as `GET /checkout/sessions/{session_id}` then shows it, with status `cancelled`. 409 (with the reason) once a deposit exists or the session is closed.',
    tag: 'Checkout',
    auth: ['apiKey'],
    params: SessionIdParam,
    body: CancelSessionRequest,
    success: { status: 200, description: 'The cancelled session.', data: CheckoutSession },
    errors: [400, ...KEY_ERRORS, 404, 409, 413, 415, 503],
  },
  {
    method: 'post',
    path: '/checkout/sessions/:session_id/simulate',
    operationId: 'simulateStatus',
    summary: 'Force a test session into a status',
    description:
      'Test keys in non-production environments only (403 otherwise). The change goes through the session workflow, so the read model and webhooks follow as for a natural change.',
    tag: 'Testing',
    auth: ['apiKey'],
    params: SessionIdParam,
    body: SimulateRequest,
    success: { status: 200, description: 'The session and its new status.', data: SimulateResponse },
    errors: [400, ...KEY_ERRORS, 404, 409, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/checkout/transactions/:transaction_id',
    operationId: 'getTransaction',
    summary: 'Read a transaction',
    description: 'By internal id, or by your own transaction id with `by_ext_transaction_id=true`.',
    tag: 'Checkout',
    auth: ['apiKey'],
    params: TransactionLookup.pick({ transaction_id: true }),
    query: TransactionLookup.pick({ by_ext_transaction_id: true }),
    success: { status: 200, description: 'The transaction.', data: Transaction },
    errors: [400, ...KEY_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/checkout/sessions/:session_id/refunds',
    operationId: 'createRefund',
    summary: 'Refund all or part of what a customer paid',
    description: `${REFUND_EXTENSION} Only a completed, overpaid or underpaid session; \`amount_usd\` at most what the customer paid less the session's refunds not failed, expired or cancelled (omitted: all of it). Paid in USDC on Solana. With \`destination\` the refund is claimed at once; without, the customer chooses where at \`claim_url\`. Optional extension: \`customer_email\`, to which the claim link is e-mailed, and a reminder three days before expiry, when the service is configured to send e-mail. Requires \`Idempotency-Key\` (400 without): the same request again answers 200 with the same refund and \`Idempotent-Replayed: true\`; the same key with a different request answers 409. 400 for an amount above what is refundable, a destination that is not USDC on Solana, not an owner address, or a deposit address of this service; 404 for a session of another merchant or mode; 409 for a session with nothing to refund. 400 for a \`customer_email\` that is not an address or longer than 254 characters.`,
    tag: 'Refunds',
    auth: ['apiKey'],
    params: SessionIdParam,
    body: CreateRefundRequest,
    success: { status: 201, description: 'The refund was created.', data: RefundObject },
    alsoAnswers: [
      {
        status: 200,
        description: 'The same request was made before with this Idempotency-Key: its refund, with `Idempotent-Replayed: true`.',
        content: 'as success',
      },
    ],
    errors: [400, ...KEY_ERRORS, 404, 409, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/checkout/refunds',
    operationId: 'listRefunds',
    summary: 'List refunds',
    description: `${REFUND_EXTENSION} The key's merchant's refunds in its mode, newest first, \`limit\` at a time; pass the last id of a page as \`starting_after\` for the next while \`has_more\`. Optional filters: session_id, status, source.`,
    tag: 'Refunds',
    auth: ['apiKey'],
    query: RefundListQuery,
    success: { status: 200, description: 'A page of refunds.', envelope: RefundList },
    errors: [400, ...KEY_ERRORS],
  },
  {
    method: 'get',
    path: '/checkout/refunds/:refund_id',
    operationId: 'getRefund',
    summary: 'Read a refund',
    description: `${REFUND_EXTENSION} Another merchant's refund, and one of the other mode, read as not found.`,
    tag: 'Refunds',
    auth: ['apiKey'],
    params: RefundIdParam,
    success: { status: 200, description: 'The refund.', data: RefundObject },
    errors: [...KEY_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/checkout/refunds/:refund_id/cancel',
    operationId: 'cancelRefund',
    summary: 'Cancel a refund',
    description: `${REFUND_EXTENSION} Withdraws a merchant refund that is pending_claim or claimed and whose payment has not begun; the optional \`reason\` becomes its status_reason. 409 once it is paying or ended, and for an automatic refund, the customer's own money, which only an operator can withdraw (cancelling a cancelled refund answers it again).`,
    tag: 'Refunds',
    auth: ['apiKey'],
    params: RefundIdParam,
    body: CancelRefundRequest,
    success: { status: 200, description: 'The cancelled refund.', data: RefundObject },
    errors: [400, ...KEY_ERRORS, 404, 409, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness',
    description: 'Answers while the API process serves requests.',
    tag: 'Service',
    auth: [],
    success: { status: 200, description: 'Up.', data: z.object({ status: z.literal('ok') }).strict() },
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness',
    description:
      'Postgres (`select 1`) and Temporal (`GetSystemInfo`) both answer within READINESS_TIMEOUT_MS; otherwise 503 `Not ready`. During the SHUTDOWN_DRAIN_MS after SIGTERM it is `Not ready: shutting down`, while other requests are still served. Which dependency failed is reported on the internal listener only (INTERNAL_PORT), with the Prometheus metrics.',
    tag: 'Service',
    auth: [],
    success: {
      status: 200,
      description: 'Ready.',
      data: z.object({ status: z.literal('ready') }).strict(),
    },
    errors: [503],
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated from the schemas the API validates with.',
    tag: 'Service',
    auth: [],
    success: { status: 200, description: 'The document (not wrapped in `data`).' },
    errors: [],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'apiDocs',
    summary: 'Human-readable API reference',
    description: 'A self-contained HTML page rendered from this document.',
    tag: 'Service',
    auth: [],
    success: { status: 200, description: 'HTML.', contentType: 'text/html' },
    errors: [],
  },
  {
    method: 'get',
    path: '/checkout/:session_id',
    operationId: 'hostedCheckoutPage',
    summary: 'The hosted checkout page',
    description:
      'Open `checkout_url_with_token` in a browser. The HTML carries no session data: its script authenticates every call with the `token` of its URL. A path that is not a session id answers 404 with a "not found" page; whether a session exists is told only to holders of its token.',
    tag: 'Hosted checkout page',
    auth: [],
    params: SessionIdParam,
    success: { status: 200, description: 'HTML, with a strict Content-Security-Policy.', contentType: 'text/html' },
    errors: [404, 503],
    htmlErrors: [404],
  },
  {
    method: 'get',
    path: '/checkout/assets/checkout.js',
    operationId: 'hostedCheckoutScript',
    summary: "The hosted page's script",
    description: 'Bundled from page/src at start-up; gzip when accepted; cacheable for good under its `?v=` content hash.',
    tag: 'Hosted checkout page',
    auth: [],
    success: { status: 200, description: 'JavaScript.', contentType: 'text/javascript' },
    alsoAnswers: [NOT_MODIFIED],
    errors: [503],
  },
  {
    method: 'get',
    path: '/checkout/assets/checkout.css',
    operationId: 'hostedCheckoutStyles',
    summary: "The hosted page's stylesheet",
    description: 'Bundled from page/styles.css at start-up; gzip when accepted; cacheable for good under its `?v=` content hash.',
    tag: 'Hosted checkout page',
    auth: [],
    success: { status: 200, description: 'CSS.', contentType: 'text/css' },
    alsoAnswers: [NOT_MODIFIED],
    errors: [503],
  },
  {
    method: 'get',
    path: '/refunds/:token',
    operationId: 'refundClaimPage',
    summary: 'The refund claim page',
    description:
      'The link a customer is sent to choose where a refund goes (docs/refunds.md#claim-flow). The token in the path is the credential; the HTML carries no refund data. A token this service did not issue answers 404 with a "not found" page.',
    tag: 'Refund claim page',
    auth: [],
    params: RefundClaimTokenParam,
    success: { status: 200, description: 'HTML, with a strict Content-Security-Policy.', contentType: 'text/html' },
    errors: [404, 503],
    htmlErrors: [404],
  },
  {
    method: 'get',
    path: '/refunds/:token/state',
    operationId: 'getRefundClaimState',
    summary: 'The refund of a claim link',
    description:
      "What the claim page shows: status (a refund past its claim expiry reads as `expired`), amount, how the money arrived, the routes it can be sent on, whether proof from the paying wallet is required, the address that paid, the destination once claimed and the transaction once sent. Counts against the rate limit of the refund's checkout session.",
    tag: 'Refund claim page',
    auth: [],
    params: RefundClaimTokenParam,
    success: { status: 200, description: 'The refund as the claim page shows it.', data: RefundClaimState },
    errors: [400, ...CLAIM_TOKEN_ERRORS],
  },
  {
    method: 'post',
    path: '/refunds/:token/claim',
    operationId: 'claimRefund',
    summary: 'Claim a refund: say where it goes',
    description:
      "The destination must be on a refund route with an address valid for its chain (EIP-55 checksum when mixed case; a Solana wallet, never a token account; Tron base58check) and not a deposit address of this service; `acknowledged_exchange_warning` must be true; when the refund requires it, `sender_proof.signature` is the paying wallet's signature of the claim message (docs/refunds.md#proof-of-ownership). Claiming again with the same destination answers as the first claim did; 409 once claimed for another destination or cancelled, 410 once expired.",
    tag: 'Refund claim page',
    auth: [],
    params: RefundClaimTokenParam,
    body: RefundClaimRequest,
    success: { status: 200, description: 'The claimed refund as the claim page shows it.', data: RefundClaimState },
    errors: [400, ...CLAIM_TOKEN_ERRORS, 409, 410, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/refunds/assets/refund.js',
    operationId: 'refundClaimScript',
    summary: "The refund claim page's script",
    description: 'Bundled from page/src/refund at start-up; gzip when accepted; cacheable for good under its `?v=` content hash.',
    tag: 'Refund claim page',
    auth: [],
    success: { status: 200, description: 'JavaScript.', contentType: 'text/javascript' },
    alsoAnswers: [NOT_MODIFIED],
    errors: [503],
  },
  {
    method: 'get',
    path: '/refunds/assets/refund.css',
    operationId: 'refundClaimStyles',
    summary: "The refund claim page's stylesheet",
    description: "The hosted checkout page's stylesheet (page/styles.css), bundled with the claim page's script.",
    tag: 'Refund claim page',
    auth: [],
    success: { status: 200, description: 'CSS.', contentType: 'text/css' },
    alsoAnswers: [NOT_MODIFIED],
    errors: [503],
  },
];
