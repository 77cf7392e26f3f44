// Settles one payment, as a child of its session (id settle_<pay_id>: one per payment, ever), by the route its session
// chose (domain/settlement/settlementRoute.ts). The simulated route writes the settled row at once. The treasury route writes the
// settlements row pending first, then asks the signer for the payout pass after pass until the chain confirms it; the
// confirmed payout completes the row, as does a payout the merchant's receivable took whole. A treasury short of funds
// is waited on, never failed: the merchant is owed the money and the operator is told to top up. A wait of days goes
// on in fresh runs (continue-as-new), so its history never grows past what Temporal allows.
import { ApplicationFailure, continueAsNew, log, patched, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { Mode } from '../domain/wire/session';
import type { SettlementRoute } from '../domain/settlement/settlementRoute';
import type { SettlementState } from '../domain/session/sessionState';
import { WorkflowFailure } from '../domain/session/workflowFailures';
import { activityFailureOfType } from './activityFailures';
import { SettlementStageAttribute } from './searchAttributes';
import { payouts, records } from './sessionActivities';

export interface SettlementInput {
  route: Exclude<SettlementRoute, 'unavailable'>;
  paymentId: string;
  sessionId: string;
  merchantId: string;
  mode: Mode;
  /** USDC base units (6 decimals) as a decimal string. */
  amountUsdcBaseUnits: string;
  /** What an earlier run of this settlement had already announced, carried across continue-as-new. */
  resumed?: { stage: SettlementStage; waitingForLiquidity: boolean };
  /** History events after which a waiting run continues as new: RUN_HISTORY_LIMIT unless a test lowers it. */
  runHistoryLimit?: number;
}

/** While a submitted payout waits for its block: a few slots. */
const CONFIRMATION_POLL = '2 seconds';
/** While the treasury is short: an operator must top it up, so check back at a human pace. */
const LIQUIDITY_POLL = '30 seconds';

/**
 * A run's history length past which a waiting settlement continues as new: each pass adds about ten events, so a
 * run covers some 500 passes (four hours of a liquidity wait), far below Temporal's 50,000-event limit.
 */
const RUN_HISTORY_LIMIT = 5_000;

export type SettlementStage = 'reserving' | 'submitted' | 'awaiting_liquidity' | 'confirmed';

export async function settlePayment(input: SettlementInput): Promise<SettlementState> {
  const { paymentId, sessionId, merchantId, mode, amountUsdcBaseUnits } = input;
  if (input.route === 'simulated') return records.settleSimulated({ paymentId, sessionId, amountUsdcBaseUnits });
  // The stage an operator filters on in the Temporal UI (SettlementStage); set when it changes, not every pass.
  let stage: SettlementStage | undefined = input.resumed?.stage;
  const enter = (next: SettlementStage) => {
    if (next === stage) return;
    stage = next;
    upsertSearchAttributes([{ key: SettlementStageAttribute, value: next }]);
  };
  if (!input.resumed) enter('reserving');
  // Whether the session's read model says it awaits liquidity: told once when the wait begins, taken back when it ends.
  let waiting = input.resumed?.waitingForLiquidity ?? false;
  const waitFor = async (next: boolean, shortfall?: { usdcShortfall: string; lamportsShortfall: string }) => {
    if (next === waiting) return;
    waiting = next;
    if (shortfall) await records.recordLiquidityWait({ sessionId, paymentId, mode, ...shortfall });
    else await records.endLiquidityWait(sessionId);
  };
  const already = await records.beginTreasurySettlement({ paymentId, sessionId, amountUsdcBaseUnits });
  if (already) {
    enter('confirmed');
    return already;
  }
  for (;;) {
    const answer = await payOnce(input);
    switch (answer.status) {
      // A test signer without a treasury has paid nothing: the payment settles simulated. A live one fails loudly,
      // naming what the operator must set.
      case 'no_treasury':
        if (mode === 'live') {
          throw ApplicationFailure.nonRetryable(
            `The signer holds no live treasury (SOLANA_TREASURY_KEY_LIVE) to settle ${paymentId}; funds are held at the deposit address`,
            WorkflowFailure.SettlementUnavailable,
          );
        }
        return records.settleSimulated({ paymentId, sessionId, amountUsdcBaseUnits });
      case 'submitted':
        await waitFor(false);
        enter('submitted');
        await sleep(CONFIRMATION_POLL);
        await continueIfLong(input, { stage: stage ?? 'submitted', waitingForLiquidity: waiting });
        break;
      case 'awaiting_liquidity':
        enter('awaiting_liquidity');
        await waitFor(true, { usdcShortfall: answer.usdcShortfall, lamportsShortfall: answer.lamportsShortfall });
        log.warn('treasury short: payout waits for a top-up', {
          paymentId,
          merchantId,
          mode,
          usdcShortfall: answer.usdcShortfall,
          lamportsShortfall: answer.lamportsShortfall,
        });
        await sleep(LIQUIDITY_POLL);
        await continueIfLong(input, { stage: stage ?? 'awaiting_liquidity', waitingForLiquidity: waiting });
        break;
      case 'confirmed':
      case 'finalized': {
        await waitFor(false);
        enter('confirmed');
        // settled_at is the payout's block time; a payout confirmed before block times were kept has its confirmation time.
        const settledAt = answer.blockTime ?? answer.confirmedAt;
        return records.completeTreasurySettlement({ paymentId, reference: answer.signature, amountUsdcBaseUnits, settledAt });
      }
      // The merchant's receivable took the whole payout: nothing was sent, the netting settles the payment at its gross
      // (docs/refunds.md#funding). The signer answers this only since netting began; the marker keeps those histories apart.
      case 'netted':
        if (patched('payout-netted')) {
          await waitFor(false);
          enter('confirmed');
          return records.completeTreasurySettlement({
            paymentId,
            reference: answer.reference,
            amountUsdcBaseUnits,
            settledAt: answer.confirmedAt,
          });
        }
        break;
    }
  }
}

/** Between passes: a run whose history has grown long hands the wait to a fresh run of the same settlement. */
async function continueIfLong(input: SettlementInput, resumed: NonNullable<SettlementInput['resumed']>): Promise<void> {
  if (workflowInfo().historyLength < (input.runHistoryLimit ?? RUN_HISTORY_LIMIT)) return;
  await continueAsNew<typeof settlePayment>({ ...input, resumed });
}

/**
 * One payout pass. A refused payout, or one that landed and failed, fails this workflow with the signer's reason and
 * type, for the session to record (docs/lifecycle.md#settlement-failures).
 */
async function payOnce(input: SettlementInput) {
  try {
    return await payouts(input.mode).payTreasuryPayout({
      paymentId: input.paymentId,
      merchantId: input.merchantId,
      mode: input.mode,
      amountUsdcBaseUnits: input.amountUsdcBaseUnits,
    });
  } catch (error) {
    for (const type of [WorkflowFailure.PayoutRefused, WorkflowFailure.PayoutFailed]) {
      const failure = activityFailureOfType(error, type);
      if (failure) throw ApplicationFailure.nonRetryable(failure.message, type);
    }
    throw error;
  }
}
