// Settles a session's payment once. Live routes without a provider fail loudly with a reason an operator
// can read; they never pretend to succeed.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findMerchant } from '../../db/repositories/merchants';
import type { Chain, TokenSymbol } from '../../domain/chains';
import { paymentIdForSession } from '../../domain/ids';
import type { Mode } from '../../domain/session';
import type { SettlementState } from '../../domain/sessionState';
import { WorkflowFailure } from '../../domain/workflowFailures';
import type { SettlementProvider } from './settlementProvider';

export interface SettlementDeps {
  sql: Sql;
  /** The provider for a route, or undefined where none exists yet. */
  providerFor(mode: Mode, chain: Chain, token: TokenSymbol): SettlementProvider | undefined;
}

export interface SettleInput {
  sessionId: string;
  merchantId: string;
  mode: Mode;
  chain: Chain;
  token: TokenSymbol;
  receivedBaseUnits: string;
  decimals: number;
}

export function createSettlePayment(deps: SettlementDeps) {
  return async function settlePayment(input: SettleInput): Promise<SettlementState> {
    const paymentId = paymentIdForSession(input.sessionId);
    const [done] = await deps.sql<{ provider: string; reference: string; amount_usdc_base_units: string; settled_at: Date }[]>`
      select provider, reference, amount_usdc_base_units, settled_at from settlements where payment_id = ${paymentId}`;
    if (done) return { provider: done.provider, reference: done.reference, amountUsdc: done.amount_usdc_base_units, settledAt: done.settled_at.toISOString() };

    const provider = deps.providerFor(input.mode, input.chain, input.token);
    if (!provider) {
      throw ApplicationFailure.nonRetryable(
        `No ${input.mode} settlement provider for ${input.token} on ${input.chain} to USDC on solana; funds are held at the deposit address`,
        WorkflowFailure.SettlementUnavailable,
      );
    }
    const merchant = await findMerchant(deps.sql, input.merchantId);
    const result = await provider.settle({
      paymentId,
      sessionId: input.sessionId,
      mode: input.mode,
      sourceChain: input.chain,
      sourceToken: input.token,
      sourceBaseUnits: BigInt(input.receivedBaseUnits),
      sourceDecimals: input.decimals,
      destinationWallet: merchant?.settlementWallet ?? null,
    });
    await deps.sql`
      insert into settlements (payment_id, session_id, provider, reference, amount_usdc_base_units, settled_at)
      values (${paymentId}, ${input.sessionId}, ${result.provider}, ${result.reference}, ${result.amountUsdcBaseUnits.toString()}, ${result.settledAt})
      on conflict (payment_id) do nothing`;
    return {
      provider: result.provider,
      reference: result.reference,
      amountUsdc: result.amountUsdcBaseUnits.toString(),
      settledAt: result.settledAt.toISOString(),
    };
  };
}

/** Test mode settles through the simulator; live mode has no provider yet, so every route fails loudly. */
export function defaultSettlementProviders(simulated: SettlementProvider): SettlementDeps['providerFor'] {
  return (mode) => (mode === 'test' ? simulated : undefined);
}
