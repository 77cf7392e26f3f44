// What a session shows while its treasury payout waits for liquidity (docs/settlement.md#r7-short-liquidity-waits):
// it stays `confirming`, its read model saying "awaiting settlement liquidity", and the operator is alerted once per
// wait, by a counter and an error log, to top the treasury up. When the payout proceeds the session says again what
// it said.
import { log, metricMeter } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { noteStatusReason, withdrawStatusReason } from '../../db/repositories/sessions';
import type { Mode } from '../../domain/wire/session';
import { AWAITING_SETTLEMENT_LIQUIDITY } from '../../domain/session/statusReasons';

export interface LiquidityWait {
  sessionId: string;
  paymentId: string;
  mode: Mode;
  usdcShortfall: string;
  lamportsShortfall: string;
}

export function createLiquidityWaitActivities(deps: { sql: Sql }) {
  return {
    async recordLiquidityWait(wait: LiquidityWait): Promise<void> {
      if (!(await noteStatusReason(deps.sql, wait.sessionId, 'confirming', AWAITING_SETTLEMENT_LIQUIDITY))) return;
      metricMeter
        .createCounter(
          'checkout_settlement_liquidity_waits',
          'payouts',
          'Treasury payouts that began waiting for the treasury to be topped up',
        )
        .add(1, { mode: wait.mode });
      log.error('treasury short: a payout awaits settlement liquidity; top up the treasury', { ...wait });
    },
    async endLiquidityWait(sessionId: string): Promise<void> {
      await withdrawStatusReason(deps.sql, sessionId, AWAITING_SETTLEMENT_LIQUIDITY);
    },
  };
}
