// One workflow per checkout session (workflow id = session id). It alone decides the session's status:
// signals and updates → the session ledger (domain/session/sessionLedger.ts, where every money decision lives) →
// status → activities, through a SessionRun (sessionRun.ts). The read model follows through activities,
// merchants hear through webhook child workflows. It ends once the session closes; deposits that arrive
// later are recorded as late by the indexer, which keeps watching the address.
import { allHandlersFinished, condition, continueAsNew, log, setHandler, workflowInfo } from '@temporalio/workflow';
import type { PaymentSelection } from '../domain/wire/payment';
import type { SessionRecord } from '../domain/wire/session';
import { countConfirmations, refundsDue } from '../domain/session/sessionLedger';
import type { SessionState } from '../domain/session/sessionState';
import type { SessionStatus } from '../domain/wire/status';
import { WorkflowFailure } from '../domain/session/workflowFailures';
import { activityFailureOfType } from './activityFailures';
import { createLock } from './lock';
import * as messages from './messages';
import { recordsInTask } from './sessionActivities';
import { refuse, SessionRun, type Carried, type InboxEvent } from './sessionRun';

/** An operator's `checkout-admin settlement resettle`: this run settles the failed session again, then ends. */
export interface Resettle {
  /** Who asked, for the session's timeline. */
  by: string;
}

export async function checkoutSession(record: SessionRecord, carried?: Carried, resettle?: Resettle): Promise<SessionState> {
  const run = new SessionRun(record, carried);
  const { state } = run;
  const inbox: InboxEvent[] = [];
  // Updates and the main loop both await activities: one at a time changes the state.
  const lock = createLock();
  // An update's writes refer to the session's row: when the API's write was lost and recordSession restores it,
  // an update that came with the start waits for it.
  let recorded = carried !== undefined;
  const withLock = <T>(fn: () => Promise<T>): Promise<T> =>
    lock(async () => {
      if (!recorded) await condition(() => recorded);
      return fn();
    });

  setHandler(messages.getStateQuery, () => ({ ...state, refunds: refundsDue(state) }));
  setHandler(messages.depositDetectedSignal, (deposit) => void inbox.push({ kind: 'detected', deposit }));
  setHandler(messages.depositConfirmedSignal, (deposit) => void inbox.push({ kind: 'confirmed', deposit }));
  setHandler(messages.depositReorgedSignal, (ref) => void inbox.push({ kind: 'reorged', ref }));
  setHandler(messages.bankTransferReceivedSignal, (receipt) => void inbox.push({ kind: 'bank', receipt }));
  setHandler(messages.confirmationsSignal, (progress) => countConfirmations(state, progress));
  setHandler(messages.selectPaymentUpdate, (selection) => withLock(() => run.selectPayment(selection)), {
    validator: (selection: PaymentSelection) => run.refuseSelection(selection),
  });
  setHandler(messages.cancelUpdate, (request) => withLock(() => run.cancel(request.reason, request.by)), {
    validator: (_request: messages.CancelRequest) => run.refuseCancel(),
  });
  setHandler(messages.creditDepositUpdate, (request) =>
    withLock(async () => {
      inbox.push({ kind: 'credited', reason: await run.creditDeposit(request) });
      return { session_id: record.sessionId, status: state.status };
    }),
  );
  setHandler(
    messages.simulateUpdate,
    ({ status }) =>
      withLock(async () => {
        await run.simulate(status);
        return { session_id: record.sessionId, status: state.status };
      }),
    {
      validator: (_request: { status: SessionStatus }) => {
        if (record.mode !== 'test') throw refuse(WorkflowFailure.SimulateRefused, 'Simulation is only available for test sessions');
      },
    },
  );

  if (!carried && !(await recordSessionOnce(record))) return state;
  recorded = true;
  if (resettle) await withLock(() => settleAgain(run, resettle));

  for (;;) {
    const wait = run.deadline() - Date.now();
    const woke = wait > 0 ? await condition(() => inbox.length > 0, Number.isFinite(wait) ? wait : undefined) : false;
    if (!woke && run.closedAt && inbox.length === 0) break;
    if (!woke && !run.expiryReached) await withLock(() => run.expire());
    while (inbox.length > 0) {
      const event = inbox.shift() as InboxEvent;
      await withLock(() => run.handle(event));
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof checkoutSession>(record, run.carried());
    }
  }
  await condition(allHandlersFinished);
  return state;
}

/**
 * A session whose settlement was refused (no payout was made) is settled again once an operator has fixed the cause
 * (docs/lifecycle.md#settlement-failures): the ledger decides as it did, settle_<pay_id> runs again, and a settlement
 * moves the session from `failed` to its paid status with that status's webhook. Refused again, it stays `failed`
 * with the new reason in its state. Either way the run ends: the session was closed before.
 */
async function settleAgain(run: SessionRun, resettle: Resettle): Promise<void> {
  run.closedAt = undefined;
  await run.reconcile(`settlement started again by ${resettle.by}`);
  run.closedAt ??= new Date().toISOString();
}

/**
 * Writes the read model if the API's write was lost, within the first workflow task: a customer's select-payment
 * right after the start waits for it, and an activity would cost a round trip through the Temporal server. False for an orphan: a workflow an older API started
 * for a row it never committed, whose transaction_id another session now holds. It ends at once, quietly.
 */
async function recordSessionOnce(record: SessionRecord): Promise<boolean> {
  try {
    await recordsInTask.recordSession(record);
    return true;
  } catch (error) {
    const superseded = activityFailureOfType(error, WorkflowFailure.SessionSuperseded);
    if (!superseded) throw error;
    log.warn('orphan session workflow ends: its transaction_id belongs to another session', {
      sessionId: record.sessionId,
      reason: superseded.message,
    });
    return false;
  }
}
