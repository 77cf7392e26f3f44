// Converting USD amounts to token base units and back, exactly, with integer arithmetic only.
import type { TokenSymbol } from '../chains/chains';
import type { Mode } from '../wire/session';

/** USD value of one whole token as an exact fraction. */
export interface Rate {
  numerator: bigint;
  denominator: bigint;
  /** The rate as the operator wrote it, e.g. "0.9998". */
  text: string;
}

export interface TokenPrice {
  rate: Rate;
  source: string;
}

export class PriceUnavailableError extends Error {
  override name = 'PriceUnavailableError';
}

export function parseRate(text: string): Rate {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal rate: ${text}`);
  const fraction = match[2] ?? '';
  const numerator = BigInt(`${match[1]}${fraction}`);
  if (numerator === 0n) throw new RangeError('a rate must be positive');
  return { numerator, denominator: 10n ** BigInt(fraction.length), text: text.trim() };
}

/**
 * Test mode prices every stablecoin at exactly 1 USD. Live mode uses only prices an operator configured
 * (LIVE_TOKEN_PRICES_USD); it never falls back to 1:1 on its own.
 */
export function tokenPrice(mode: Mode, token: TokenSymbol, livePrices: Partial<Record<TokenSymbol, Rate>>): TokenPrice {
  if (mode === 'test') return { rate: parseRate('1'), source: 'test-mode fixed 1:1' };
  const rate = livePrices[token];
  // Merchant-facing: the operator-side remedy (LIVE_TOKEN_PRICES_USD) is in docs/configuration.md, not in API answers.
  if (!rate) throw new PriceUnavailableError(`Live payments in ${token} are unavailable: no price is configured for it`);
  return { rate, source: 'operator-configured LIVE_TOKEN_PRICES_USD' };
}

/**
 * Base units needed to pay `amountUsdCents` at `rate`, rounded up so the merchant is never short. Tokens
 * with more than 6 decimals (bsc's 18) round up to a whole micro-unit: amounts are shown and credited at 6
 * decimals, so the amount a customer sees is exactly the amount that completes the session.
 */
export function baseUnitsForUsd(amountUsdCents: bigint, decimals: number, rate: Rate): bigint {
  const unit = decimals > 6 ? 10n ** BigInt(decimals - 6) : 1n;
  const numerator = amountUsdCents * 10n ** BigInt(decimals) * rate.denominator;
  const denominator = 100n * rate.numerator * unit;
  return ((numerator + denominator - 1n) / denominator) * unit;
}

/**
 * Base units → the contract's 6-decimal token amount string. Tokens with more decimals (bsc's 18) are
 * truncated below a micro-unit, which is never credited.
 */
export function toSixDecimalString(baseUnits: bigint, decimals: number): string {
  const micro = decimals >= 6 ? baseUnits / 10n ** BigInt(decimals - 6) : baseUnits * 10n ** BigInt(6 - decimals);
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/**
 * `LIVE_TOKEN_PRICES_USD="USDC=1,USDT=0.9998"` → rates per token. A rate above 1 is refused: the merchant is paid
 * the session amount in USDC, and the signer backs that payout with the deposits' units 1:1, not trusting the quoted
 * price in rows it does not write (docs/settlement.md#who-owns-each-unit). Above 1 the deposit holds fewer units than
 * the payout, so every payment quoted at it would be refused after the customer's money arrived.
 */
export function parseLivePrices(text: string | undefined): Partial<Record<TokenSymbol, Rate>> {
  const prices: Partial<Record<TokenSymbol, Rate>> = {};
  for (const entry of (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [token, rate] = entry.split('=');
    if ((token !== 'USDC' && token !== 'USDT') || !rate) throw new RangeError(`LIVE_TOKEN_PRICES_USD entry "${entry}" is not TOKEN=rate`);
    const parsed = parseRate(rate);
    if (parsed.numerator > parsed.denominator) {
      throw new RangeError(
        `${token}=${parsed.text} is above 1: the signer backs a payout with the deposit's units 1:1, so every live payment in ${token} would be refused after the money arrived; set ${token} to 1 or below`,
      );
    }
    prices[token] = parsed;
  }
  return prices;
}
