// The refunds the service opens by itself (docs/refunds.md#sources): for a deposit no session could credit, all of it,
// under the reason it was kept; for a credited deposit, what it brought beyond the session's price. Pure.
import { CHAINS, TOKENS, type Chain, type TokenSymbol } from '../chains/chains';
import { assetDecimals, tokenAsset } from '../ledger/ledger';
import { toMicroUnits } from '../session/sessionLedger';
import type { AutomaticRefundSource, RefundSource } from './refundSource';

/** Sources of money no session could credit: each announced to the merchant as `payment.unmatched_deposit`. */
export const UNMATCHED_DEPOSIT_SOURCES: ReadonlySet<RefundSource> = new Set<RefundSource>([
  'late_deposit',
  'wrong_token',
  'wrong_chain',
  'dust',
]);

/**
 * Why a deposit kept for a refund was kept, judged in depositMismatch's order (domain/session/sessionLedger.ts): the
 * session had closed, it chose no method or another pair, or the deposit matched the pair and was dust. A deposit
 * before any method was chosen is in a token the session did not ask for.
 */
export function unmatchedDepositSource(
  deposit: { chain: Chain; token: TokenSymbol },
  session: { closed: boolean; payment: { chain: Chain; token: TokenSymbol } | null },
): AutomaticRefundSource {
  if (session.closed) return 'late_deposit';
  if (!session.payment) return 'wrong_token';
  if (deposit.chain !== session.payment.chain) return 'wrong_chain';
  if (deposit.token !== session.payment.token) return 'wrong_token';
  return 'dust';
}

/** A token amount's USD worth in micro-units: one stablecoin unit for one dollar, what is below a micro-unit dropped. */
export const refundUsdMicros = (amountBaseUnits: bigint, token: TokenSymbol, chain: Chain): bigint =>
  toMicroUnits(amountBaseUnits, assetDecimals(tokenAsset(token, chain)));

/**
 * The smallest deposit of each token and chain a refund can return, a micro-dollar: what is below it stays owed in
 * the ledger, for the operator, so a sweep looking for deposits to refund passes over it rather than finding it again
 * every time.
 */
export const SMALLEST_REFUNDABLE_DEPOSITS: ReadonlyArray<{ chain: Chain; token: TokenSymbol; baseUnits: bigint }> = CHAINS.flatMap(
  (chain) =>
    TOKENS.map((token) => {
      const decimals = assetDecimals(tokenAsset(token, chain));
      return { chain, token, baseUnits: decimals > 6 ? 10n ** BigInt(decimals - 6) : 1n };
    }),
);

/** When an automatic refund's claim window closes. */
export const refundExpiresAt = (now: Date, claimDays: number): Date => new Date(now.getTime() + claimDays * 24 * 60 * 60 * 1000);
