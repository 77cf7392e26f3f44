// Settles a session's payment once. Live routes without a provider fail loudly with a reason an operator
// can read; they never pretend to succeed.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findMerchant } from '../../db/repositories/merchants';
import { findSettlement, insertPendingSettlement, settlePendingSettlement, takeOverUnpaidSettlement } from '../../db/repositories/settlements';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import { toMicroUnits } from '../../domain/session/sessionLedger';
import type { SettlementState } from '../../domain/session/sessionState';
import { TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
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
    const existing = await findSettlement(deps.sql, paymentId);
    if (existing?.status === 'settled' && existing.reference !== null && existing.settled_at !== null) {
      return { provider: existing.provider, reference: existing.reference, amountUsdc: existing.amount_usdc_base_units, settledAt: existing.settled_at.toISOString() };
    }

    const provider = deps.providerFor(input.mode, input.chain, input.token);
    if (!provider) {
      throw ApplicationFailure.nonRetryable(
        `No ${input.mode} settlement provider for ${input.token} on ${input.chain} to USDC on solana; funds are held at the deposit address`,
        WorkflowFailure.SettlementUnavailable,
      );
    }
    // A settlement begun with one provider is finished by that provider only: a second one could pay again. A
    // treasury settlement whose signer had no treasury for the mode (workflows/settlePayment.ts) paid nothing, and
    // only that one may be taken over.
    if (existing && existing.provider !== provider.name && !(await takeOverUnpaidSettlement(deps.sql, paymentId, TREASURY_PROVIDER, provider.name))) {
      throw ApplicationFailure.retryable(
        `Settlement of ${paymentId} was started with provider ${existing.provider}, which is no longer configured for this route; restore it to finish the settlement`,
        'SettlementProviderChanged',
      );
    }
    const sourceBaseUnits = BigInt(input.receivedBaseUnits);
    // The row comes first: a crash after the provider moved money finds it on the retry and finishes there.
    await insertPendingSettlement(deps.sql, { paymentId, sessionId: input.sessionId, provider: provider.name, amountUsdcBaseUnits: toMicroUnits(sourceBaseUnits, input.decimals).toString() });
    const merchant = await findMerchant(deps.sql, input.merchantId);
    const result = await provider.settle({
      paymentId,
      sessionId: input.sessionId,
      mode: input.mode,
      sourceChain: input.chain,
      sourceToken: input.token,
      sourceBaseUnits,
      sourceDecimals: input.decimals,
      destinationWallet: merchant?.settlementWallet ?? null,
    });
    await settlePendingSettlement(deps.sql, paymentId, { reference: result.reference, amountUsdcBaseUnits: result.amountUsdcBaseUnits.toString(), settledAt: result.settledAt });
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
