// A quote prices a USD amount in one token on one chain and is kept, so a later payment can name the
// price it was made at. Test keys price 1:1; live keys use only operator-configured prices.
import { insertQuote } from '../../../db/repositories/quotes';
import { centsToUsd } from '../../../domain/money/money';
import { PriceUnavailableError, baseUnitsForUsd, toSixDecimalString, tokenPrice } from '../../../domain/money/pricing';
import { paymentDecimals, type QuoteQuery, type QuoteResponse } from '../../../domain/wire/quote';
import type { AppDeps, MerchantAuth } from '../../context';
import { NotConfiguredError, ValidationFailedError } from '../../errors';

export async function createQuote(deps: AppDeps, auth: MerchantAuth, query: QuoteQuery): Promise<QuoteResponse> {
  const decimals = paymentDecimals(deps.registry, auth.mode, query.token, query.chain);
  if (decimals === null)
    throw new ValidationFailedError([`chain: ${query.token} on ${query.chain} is not available with ${auth.mode} keys`]);

  let price;
  try {
    price = tokenPrice(auth.mode, query.token, deps.config.liveTokenPrices);
  } catch (error) {
    if (!(error instanceof PriceUnavailableError)) throw error;
    deps.logger.error({ token: query.token }, 'live quote refused: LIVE_TOKEN_PRICES_USD has no price for this token');
    throw new NotConfiguredError(`Live quotes for ${query.token} are unavailable: no price is configured for it`);
  }

  const amountUsdCents = query.amount_usd;
  const tokenBaseUnits = baseUnitsForUsd(amountUsdCents, decimals, price.rate);
  const now = deps.now?.() ?? new Date();
  const quote = await insertQuote(deps.sql, {
    mode: auth.mode,
    sessionId: null,
    token: query.token,
    chain: query.chain,
    amountUsdCents,
    tokenBaseUnits,
    decimals,
    rate: price.rate.text,
    priceSource: price.source,
    expiresAt: new Date(now.getTime() + deps.config.quoteTtlSeconds * 1000),
  });
  return {
    quote_id: quote.id,
    amount_usd: centsToUsd(amountUsdCents),
    token: quote.token,
    chain: quote.chain,
    token_amount: toSixDecimalString(tokenBaseUnits, decimals),
    token_amount_base_units: tokenBaseUnits.toString(),
    decimals,
    rate: quote.rate,
    price_source: quote.priceSource,
    expires_at: quote.expiresAt.toISOString(),
    created_at: quote.createdAt.toISOString(),
  };
}
