// The simulated route (domain/settlement/settlementRoute.ts): test mode's settlement of what no treasury pays, a
// simulated receipt or a signer without a test treasury (a bank transfer is not one: activities/settlement/bankSettlement.ts).
// No funds move; the settlements row records what a payout would have delivered, with the same row a treasury
// settlement has, so a payment settles once whichever route.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import {
  findSettlement,
  insertPendingSettlement,
  settlePendingSettlement,
  takeOverUnpaidSettlement,
} from '../../db/repositories/settlements';
import { SIMULATED_PROVIDER, TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import type { SettlementState } from '../../domain/session/sessionState';
import { settlementOf } from './treasurySettlement';

export interface SimulatedSettlement {
  paymentId: string;
  sessionId: string;
  /** USDC base units (6 decimals) as a decimal string. */
  amountUsdcBaseUnits: string;
}

export function createSimulatedSettlement(deps: { sql: Sql; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return async function settleSimulated(request: SimulatedSettlement): Promise<SettlementState> {
    const { paymentId } = request;
    await deps.sql.begin(async (tx) => {
      await insertPendingSettlement(tx, {
        paymentId,
        sessionId: request.sessionId,
        provider: SIMULATED_PROVIDER,
        amountUsdcBaseUnits: request.amountUsdcBaseUnits,
      });
      // A treasury settlement whose signer had no test treasury paid nothing: its payout row, written before anything
      // is signed, does not exist. Only such a row is taken over; one with a payout is the treasury's to finish.
      await takeOverUnpaidSettlement(tx, paymentId, TREASURY_PROVIDER, SIMULATED_PROVIDER);
      await settlePendingSettlement(
        tx,
        paymentId,
        { reference: `sim_${paymentId}`, amountUsdcBaseUnits: request.amountUsdcBaseUnits, settledAt: now() },
        SIMULATED_PROVIDER,
      );
    });
    const row = await findSettlement(deps.sql, paymentId);
    const settled = row && settlementOf(row);
    if (settled) return settled;
    throw ApplicationFailure.retryable(
      `Settlement of ${paymentId} was started with provider ${row?.provider}; only it may finish the settlement`,
      'SettlementProviderChanged',
    );
  };
}
