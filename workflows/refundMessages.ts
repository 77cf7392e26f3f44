// The refund workflow's input and signals (workflows/refund.ts). The API signals after it moved the row; the workflow
// reads the row for what happened, so a signal carries nothing.
import { defineSignal } from '@temporalio/workflow';
import { REFUND_SIGNALS } from '../domain/refunds/refundPayment';
import type { Mode } from '../domain/wire/session';

export const refundClaimedSignal = defineSignal(REFUND_SIGNALS.claimed);
export const refundCancelledSignal = defineSignal(REFUND_SIGNALS.cancelled);

export interface RefundWorkflowInput {
  refundId: string;
  mode: Mode;
  /** What an earlier run of this refund had already done, carried across continue-as-new. */
  resumed?: { reminded: boolean };
  /** History events after which a paying run continues as new: RUN_HISTORY_LIMIT unless a test lowers it. */
  runHistoryLimit?: number;
}
