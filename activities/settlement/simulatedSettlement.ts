import { toMicroUnits } from '../../domain/session/sessionLedger';
import type { SettlementProvider } from './settlementProvider';

/** Test mode: no funds move; the result records what a real settlement would have delivered. */
export function simulatedSettlement(now: () => Date = () => new Date()): SettlementProvider {
  return {
    name: 'simulated',
    async settle(request) {
      const amountUsdcBaseUnits = toMicroUnits(request.sourceBaseUnits, request.sourceDecimals);
      return { provider: 'simulated', reference: `sim_${request.paymentId}`, amountUsdcBaseUnits, settledAt: now() };
    },
  };
}
