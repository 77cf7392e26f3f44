// The webhook of a status change: one delivery per (change, event), written by an activity and delivered
// by its own child workflow, which outlives the session workflow.
import { ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SessionRecord } from '../domain/wire/session';
import type { SessionState } from '../domain/session/sessionState';
import type { SessionStatus } from '../domain/wire/status';
import { webhookTaskQueue } from '../domain/taskQueues';
import { buildWebhookPayload, EVENT_FOR_STATUS } from '../domain/webhooks/webhookPayload';
import { records } from './sessionActivities';
import { webhookDelivery } from './webhookDelivery';

export async function announceStatus(record: SessionRecord, state: SessionState, status: SessionStatus, at: string): Promise<void> {
  const event = EVENT_FOR_STATUS[status];
  if (!event) return;
  const selection = state.selection;
  const content = buildWebhookPayload({
    event,
    status,
    sessionId: record.sessionId,
    extTransactionId: record.extTransactionId,
    amountUsdCents: record.amountUsdCents,
    metadata: record.metadata,
    ...(selection
      ? {
          payment: {
            paymentId: selection.payment_id,
            tokenSymbol: selection.token,
            chain: selection.chain,
            expectedBaseUnits: selection.amount_base_units,
            receivedBaseUnits: state.receivedBaseUnits,
            decimals: selection.decimals,
          },
        }
      : {}),
    ...(state.settlement
      ? {
          settlement: {
            amountUsdcBaseUnits: state.settlement.amountUsdc,
            settledAt: state.settlement.settledAt,
            reference: state.settlement.reference,
            provider: state.settlement.provider,
            ...(state.settlement.nettedUsdc ? { nettedUsdcBaseUnits: state.settlement.nettedUsdc } : {}),
            ...(state.settlement.feeUsdc ? { feeUsdcBaseUnits: state.settlement.feeUsdc } : {}),
          },
        }
      : {}),
    timestamp: at,
  });
  const deliveryId = await records.createWebhookDelivery({
    sessionId: record.sessionId,
    mode: record.mode,
    statusVersion: state.version,
    url: record.webhookUrl,
    content,
  });
  try {
    await startChild(webhookDelivery, {
      workflowId: deliveryId,
      args: [{ deliveryId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      taskQueue: webhookTaskQueue(workflowInfo().taskQueue),
    });
  } catch (error) {
    // Already started by an earlier run of this workflow (before a continue-as-new): nothing to do.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
