// GET /checkout/quote (docs/api.md#tokens-quotes-and-payment-selection): what a USD amount costs in one token on one chain, priced now.
import { CHAINS, TOKENS, type Chain, type TokenSymbol } from '../chains/chains';
import { parseUsdCents, USD_TEXT } from '../money/money';
import { MAX_AMOUNT_USD, MAX_AMOUNT_USD_CENTS, Timestamp, type Mode } from './session';
import type { ChainRegistry } from '../chains/chainRegistry';
import { networkForMode } from '../session/payablePairs';
import { z } from './validationMessages';

/** Query strings are text: the amount goes from its digits straight to integer cents, never through a JS number. */
export const QuoteQuery = z
  .object({
    amount_usd: z
      .string()
      .regex(USD_TEXT, 'Must be a USD amount with at most 2 decimal places, such as 25.50')
      .transform(parseUsdCents)
      .pipe(
        z
          .bigint()
          .positive('Number must be greater than 0')
          .max(MAX_AMOUNT_USD_CENTS, `Number must be less than or equal to ${MAX_AMOUNT_USD}`),
      )
      .meta({ description: `USD amount, greater than 0 and at most ${MAX_AMOUNT_USD}, at most 2 decimal places.` }),
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
  })
  .strict();
export type QuoteQuery = z.infer<typeof QuoteQuery>;

export const QuoteResponse = z
  .object({
    quote_id: z.string().meta({ description: 'qt_ prefixed ID' }),
    amount_usd: z.number(),
    token: z.enum(TOKENS),
    chain: z.enum(CHAINS),
    token_amount: z.string().meta({ description: 'Decimal string with 6 decimals, rounded up so the merchant is never short.' }),
    token_amount_base_units: z.string().meta({ description: "Integer string in the token's base units on this chain." }),
    decimals: z.number().int(),
    rate: z.string().meta({ description: 'USD price of one whole token, as a decimal string.' }),
    price_source: z.string(),
    expires_at: Timestamp,
    created_at: Timestamp,
  })
  .strict();
export type QuoteResponse = z.infer<typeof QuoteResponse>;

/**
 * Decimals of the contract a payment in `mode` is made in (mainnet for live keys, the test network for
 * test keys), or null when that network has no contract for the pair: such a pair cannot be paid, so it
 * is not quoted either.
 */
export function paymentDecimals(registry: ChainRegistry, mode: Mode, token: TokenSymbol, chain: Chain): number | null {
  return registry.token(chain, networkForMode(mode), token)?.decimals ?? null;
}
