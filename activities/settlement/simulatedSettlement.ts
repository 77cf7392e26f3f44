import type { SettlementProvider } from './settlementProvider';

/** Test mode: no funds move; the result records what a real settlement would have delivered. */
export function simulatedSettlement(now: () => Date = () => new Date()): SettlementProvider {
  return {
    name: 'simulated',
    async settle(request) {
      const scale = 10n ** BigInt(Math.abs(request.sourceDecimals - 6));
      const amountUsdcBaseUnits = request.sourceDecimals >= 6 ? request.sourceBaseUnits / scale : request.sourceBaseUnits * scale;
      return { provider: 'simulated', reference: `sim_${request.paymentId}`, amountUsdcBaseUnits, settledAt: now() };
    },
  };
}
