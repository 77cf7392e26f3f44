// The main worker's side of a treasury settlement (workflows/settlePayment.ts): which route a payment takes, and
// the settlements row around the signer's payout. The row is written pending before the signer is asked to pay,
// and completed from the confirmed payout.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findSettlement, insertPendingSettlement, settlePendingSettlement, type SettlementRow } from '../../db/repositories/settlements';
import {
  settlementRoute,
  TREASURY_PROVIDER,
  type LiveRoute,
  type RouteRequest,
  type SettlementRoute,
} from '../../domain/settlement/settlementRoute';
import type { SettlementState } from '../../domain/session/sessionState';

export interface TreasurySettlementDeps {
  sql: Sql;
  /** SETTLEMENT_LIVE_ROUTES, validated at start. */
  liveRoutes: readonly LiveRoute[];
}

export interface BeginTreasurySettlement {
  paymentId: string;
  sessionId: string;
  amountUsdcBaseUnits: string;
}

export interface CompleteTreasurySettlement {
  paymentId: string;
  /** The payout transaction's signature, or the netting's reference of a payout netted whole (domain/settlement/payoutNetting.ts). */
  reference: string;
  amountUsdcBaseUnits: string;
  settledAt: string;
}

export const settlementOf = (row: SettlementRow): SettlementState | undefined =>
  row.status === 'settled' && row.reference !== null && row.settled_at !== null
    ? {
        provider: row.provider,
        reference: row.reference,
        amountUsdc: row.amount_usdc_base_units,
        settledAt: row.settled_at.toISOString(),
        ...(BigInt(row.netted_usdc_base_units) > 0n ? { nettedUsdc: row.netted_usdc_base_units } : {}),
        ...(BigInt(row.fee_usdc_base_units) > 0n ? { feeUsdc: row.fee_usdc_base_units } : {}),
      }
    : undefined;

export function createTreasurySettlementActivities(deps: TreasurySettlementDeps) {
  const rowOf = (paymentId: string) => findSettlement(deps.sql, paymentId);
  return {
    async settlementRoute(request: RouteRequest): Promise<SettlementRoute> {
      return settlementRoute(request, deps.liveRoutes);
    },

    /** The pending row, or the settlement this payment already has: a settled payment is never paid again. */
    async beginTreasurySettlement(request: BeginTreasurySettlement): Promise<SettlementState | undefined> {
      await insertPendingSettlement(deps.sql, {
        paymentId: request.paymentId,
        sessionId: request.sessionId,
        provider: TREASURY_PROVIDER,
        amountUsdcBaseUnits: request.amountUsdcBaseUnits,
      });
      const row = await rowOf(request.paymentId);
      const settled = row && settlementOf(row);
      if (settled) return settled;
      if (row?.provider !== TREASURY_PROVIDER) {
        throw ApplicationFailure.retryable(
          `Settlement of ${request.paymentId} was started with provider ${row?.provider}; only it may finish the settlement`,
          'SettlementProviderChanged',
        );
      }
      return undefined;
    },

    async completeTreasurySettlement(request: CompleteTreasurySettlement): Promise<SettlementState> {
      await settlePendingSettlement(deps.sql, request.paymentId, request, TREASURY_PROVIDER);
      const settled = settlementOf((await rowOf(request.paymentId)) as SettlementRow);
      if (!settled)
        throw ApplicationFailure.retryable(
          `Settlement of ${request.paymentId} has no settled row after its payout confirmed`,
          'SettlementRowMissing',
        );
      return settled;
    },
  };
}
