import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';

export interface SettlementRequest {
  paymentId: string;
  sessionId: string;
  mode: Mode;
  sourceChain: Chain;
  sourceToken: TokenSymbol;
  /** What the customer paid, in the source token's base units. */
  sourceBaseUnits: bigint;
  sourceDecimals: number;
  /** The merchant's USDC wallet on Solana. */
  destinationWallet: string | null;
}

export interface SettlementResult {
  provider: string;
  reference: string;
  /** USDC delivered on Solana, 6-decimal base units. */
  amountUsdcBaseUnits: bigint;
  settledAt: Date;
}

/**
 * Moves a payment's funds to the merchant as USDC on Solana. Implementations must be idempotent on
 * paymentId: the activity may be retried after a provider call succeeded.
 */
export interface SettlementProvider {
  readonly name: string;
  settle(request: SettlementRequest): Promise<SettlementResult>;
}
