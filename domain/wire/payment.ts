// POST /checkout/sessions/select-payment (docs/api.md#tokens-quotes-and-payment-selection): the customer's choice of token and chain, and the
// payment instructions the session workflow answers with (workflows/messages.ts PaymentInstructions).
import { CHAINS, TOKENS } from '../chains/chains';
import { SESSION_ID_PATTERN } from './ids';
import { Timestamp } from './session';
import { z } from './validationMessages';

export const SelectPaymentRequest = z
  .object({
    session_id: z.string().regex(SESSION_ID_PATTERN, 'Must be a session id of the form cs_<ULID>'),
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
  })
  .strict();
export type SelectPaymentRequest = z.infer<typeof SelectPaymentRequest>;

export const PaymentInstructions = z
  .object({
    payment_id: z.string().meta({ description: 'pay_ prefixed ID' }),
    quote_id: z.string().meta({ description: 'qt_ prefixed ID of the price the amount was computed at' }),
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    deposit_address: z.string().meta({ description: 'Address generated for this session; send the payment here.' }),
    token_address: z.string().meta({ description: 'Token contract (EVM, tron) or mint (solana) the payment must be made in.' }),
    amount: z.string().meta({ description: 'Exact amount expected, decimal string with 6 decimals.' }),
    amount_base_units: z.string().meta({ description: "The same amount in the token's base units on this chain." }),
    decimals: z.number().int(),
    payment_uri: z.string().meta({ description: 'EIP-681 (EVM), Solana Pay (solana) or tron: URI for the QR code and wallet links.' }),
    confirmations_required: z.number().int(),
    expires_at: Timestamp,
  })
  .strict();
export type PaymentInstructions = z.infer<typeof PaymentInstructions>;

/** A customer's choice of token and chain: select-payment without the session, as the workflow receives it. */
export type PaymentSelection = Pick<SelectPaymentRequest, 'token' | 'chain'>;
