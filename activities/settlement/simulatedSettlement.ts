// The simulated route (domain/settlementRoute.ts): test mode's settlement of what no treasury pays, a bank transfer,
// a simulated receipt or a signer without a test treasury. No funds move; the settlements row records what a
// payout would have delivered, with the same row a treasury settlement has, so a payment settles once whichever route.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { SIMULATED_PROVIDER, TREASURY_PROVIDER } from '../../domain/settlementRoute';
import type { SettlementState } from '../../domain/sessionState';
import { settlementOf, settlementRow } from './treasurySettlement';

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
    await deps.sql.begin((tx) => [
      tx`
        insert into settlements (payment_id, session_id, provider, amount_usdc_base_units, status)
        values (${paymentId}, ${request.sessionId}, ${SIMULATED_PROVIDER}, ${request.amountUsdcBaseUnits}, 'pending')
        on conflict (payment_id) do nothing`,
      // A treasury settlement whose signer had no test treasury paid nothing: its payout row, written before anything
      // is signed, does not exist. Only such a row is taken over; one with a payout is the treasury's to finish.
      tx`
        update settlements set provider = ${SIMULATED_PROVIDER}
        where payment_id = ${paymentId} and provider = ${TREASURY_PROVIDER} and status = 'pending'
          and not exists (select 1 from payouts where payment_id = ${paymentId})`,
      tx`
        update settlements
        set status = 'settled', reference = ${`sim_${paymentId}`}, amount_usdc_base_units = ${request.amountUsdcBaseUnits}, settled_at = ${now()}
        where payment_id = ${paymentId} and provider = ${SIMULATED_PROVIDER} and status = 'pending'`,
    ]);
    const row = await settlementRow(deps.sql, paymentId);
    const settled = row && settlementOf(row);
    if (settled) return settled;
    throw ApplicationFailure.retryable(`Settlement of ${paymentId} was started with provider ${row?.provider}; only it may finish the settlement`, 'SettlementProviderChanged');
  };
}
