// One refund, from its creation to its end (docs/refunds.md): id refund_<ref_id>, one per refund, ever. It announces
// the refund, waits for the customer's claim, the merchant's cancellation or the claim window's end (a durable timer,
// with a reminder three days before), and once claimed asks the signer to pay it pass after pass, as a merchant payout
// is paid (workflows/settlePayment.ts). The row is the truth: the signals only wake the workflow to read it again, so a
// refund claimed or cancelled before its workflow started is taken as it stands.
import { condition, continueAsNew, log, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import { UNMATCHED_DEPOSIT_SOURCES } from '../domain/refunds/automaticRefund';
import { nextRefundWake } from '../domain/refunds/refundDeadlines';
import type { RefundStatus } from '../domain/refunds/refundStatus';
import { REFUND_EVENT_FOR_STATUS } from '../domain/webhooks/refundWebhookPayload';
import { UNMATCHED_DEPOSIT_EVENT } from '../domain/webhooks/webhookPayload';
import { announceRefund } from './announceRefund';
import { refundPayments } from './refundActivities';
import { refundCancelledSignal, refundClaimedSignal, type RefundWorkflowInput } from './refundMessages';
import { records } from './sessionActivities';

/** While a submitted payment waits for its block: a few slots. */
const CONFIRMATION_POLL = '2 seconds';
/** While the treasury is short: an operator must top it up, so check back at a human pace. */
const LIQUIDITY_POLL = '30 seconds';
/** As settlePayment's: a paying run covers some 500 passes before it continues as new. */
const RUN_HISTORY_LIMIT = 5_000;

export async function refundWorkflow(input: RefundWorkflowInput): Promise<RefundStatus> {
  const { refundId } = input;
  let woken = false;
  setHandler(refundClaimedSignal, () => void (woken = true));
  setHandler(refundCancelledSignal, () => void (woken = true));
  let reminded = input.resumed?.reminded ?? false;

  // Cleared before each read, so that a signal sent after the read wakes the wait that follows it.
  woken = false;
  let progress = await records.refundProgress(refundId);
  if (!input.resumed) {
    if (UNMATCHED_DEPOSIT_SOURCES.has(progress.source)) await announceRefund(refundId, UNMATCHED_DEPOSIT_EVENT);
    await announceRefund(refundId, 'refund.created');
  }
  while (progress.status === 'pending_claim') {
    const wake = nextRefundWake(progress, reminded);
    const waitMs = wake.atMs - Date.now();
    const signalled = waitMs > 0 && (await condition(() => woken, waitMs));
    if (!signalled && wake.kind === 'remind') {
      await announceRefund(refundId, 'refund.expiring');
      reminded = true;
    } else if (!signalled) {
      await records.expireRefund(refundId);
    }
    woken = false;
    progress = await records.refundProgress(refundId);
  }

  let status: RefundStatus = progress.status;
  if (status === 'claimed' || status === 'submitted') {
    await announceRefund(refundId, 'refund.claimed');
    status = await pay(input, reminded, status === 'submitted');
  }
  const event = REFUND_EVENT_FOR_STATUS[status];
  if (event) await announceRefund(refundId, event);
  return status;
}

/** Asks the signer for the payment pass after pass until it landed or failed; answers the status the row ends in. */
async function pay(input: RefundWorkflowInput, reminded: boolean, submitted: boolean): Promise<RefundStatus> {
  const { refundId, mode } = input;
  for (;;) {
    const outcome = await refundPayments(mode).payRefund({ refundId, mode });
    switch (outcome.status) {
      case 'submitted':
        if (!submitted) await records.recordRefundSubmitted(refundId);
        submitted = true;
        await sleep(CONFIRMATION_POLL);
        break;
      case 'awaiting_liquidity':
        log.warn('treasury short: refund waits for a top-up', {
          refundId,
          mode,
          usdcShortfall: outcome.usdcShortfall,
          lamportsShortfall: outcome.lamportsShortfall,
        });
        await sleep(LIQUIDITY_POLL);
        break;
      case 'confirmed':
      case 'failed':
        return records.recordRefundOutcome(refundId, outcome);
    }
    // A long wait goes on in a fresh run, which reads the row again and resumes paying.
    if (workflowInfo().historyLength >= (input.runHistoryLimit ?? RUN_HISTORY_LIMIT)) {
      await continueAsNew<typeof refundWorkflow>({ ...input, resumed: { reminded } });
    }
  }
}
