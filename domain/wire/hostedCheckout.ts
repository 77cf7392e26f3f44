// GET /checkout/sessions/current: the session as the hosted checkout page shows it, read with the session
// token alone. Unlike the merchant's view (2.2) it carries no metadata, merchant id or transaction id, and
// it adds what the customer needs to pay and to follow the payment: the chosen payment's instructions,
// what has arrived, what is still due, and the confirmation progress of a deposit on its way.
import { CHAINS, TOKENS } from '../chains/chains';
import { SupportedMethods, Timestamp, TokenChainSetSchema } from './session';
import { SESSION_STATUSES } from './status';
import { z } from './validationMessages';

const SixDecimals = z.string().regex(/^\d+\.\d{6}$/);

export const HostedPayment = z
  .object({
    payment_id: z.string().meta({ description: 'pay_ prefixed ID' }),
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    deposit_address: z.string().meta({ description: 'Send the payment here.' }),
    token_address: z.string().meta({ description: 'Token contract (EVM, tron) or mint (solana) the payment must be made in.' }),
    amount: SixDecimals.meta({ description: 'Amount expected in total, 6 decimals.' }),
    amount_received: SixDecimals.meta({ description: 'Confirmed and credited so far, 6 decimals.' }),
    amount_due: SixDecimals.meta({ description: 'Still to pay (0.000000 once the amount is reached), 6 decimals.' }),
    payment_uri: z.string().meta({ description: 'Wallet URI (EIP-681, Solana Pay, tron:) for the full amount.' }),
    payment_uri_due: z.string().meta({ description: 'The same URI for amount_due; equals payment_uri while nothing has arrived.' }),
    confirmations_required: z.number().int(),
    estimated_finality_seconds: z.number().int(),
  })
  .strict();
export type HostedPayment = z.infer<typeof HostedPayment>;

export const DepositProgress = z
  .object({
    confirmations: z.number().int().meta({ description: "Blocks so far, the deposit's own included, as the indexer last counted." }),
    confirmations_required: z.number().int(),
  })
  .strict();
export type DepositProgress = z.infer<typeof DepositProgress>;

export const HostedCheckoutSession = z
  .object({
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    amount_usd: z.number(),
    merchant_currency: z.string().optional(),
    merchant_amount: z.number().optional(),
    supported_methods: SupportedMethods,
    supported_tokens: TokenChainSetSchema,
    expires_at: Timestamp,
    payment: HostedPayment.nullable().meta({ description: 'The chosen token and chain; null until one is chosen.' }),
    deposit: DepositProgress.nullable().meta({ description: 'The newest deposit still waiting for confirmations; null when none is.' }),
  })
  .strict();
export type HostedCheckoutSession = z.infer<typeof HostedCheckoutSession>;
