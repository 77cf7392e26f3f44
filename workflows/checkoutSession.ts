// One workflow per checkout session (workflow id = session id). It alone decides the session's status:
// signals → the session ledger (domain/sessionLedger.ts, where every money decision lives) → status →
// activities. The read model follows through activities, merchants hear through webhook child workflows.
// After closing, the workflow stays open for the late-deposit window, recording (never crediting) deposits.
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConfirmedDeposit, DepositObservation, DepositRef } from '../domain/deposit';
import type { PaymentInstructions, PaymentSelection } from '../domain/payment';
import type { SessionRecord } from '../domain/session';
import {
  confirmDeposit,
  countConfirmations,
  decideStatus,
  emptyLedger,
  hasReceivedAnything,
  observeDeposit,
  receiveBankTransfer,
  refundsDue,
  reorgDeposit,
  settlementSource,
  type DepositOutcome,
  type LedgerTerms,
  type LedgerWindow,
} from '../domain/sessionLedger';
import type { BankTransferReceipt, SessionState } from '../domain/sessionState';
import type { SessionStatus } from '../domain/status';
import { WorkflowFailure } from '../domain/workflowFailures';
import { announceStatus } from './announceStatus';
import { createLock } from './lock';
import * as messages from './messages';
import { ChainAttribute, SessionStatusAttribute, TokenAttribute } from './searchAttributes';
import { paymentSetup, records, settlement } from './sessionActivities';
import { simulateStatus } from './simulateStatus';

const FINAL: ReadonlySet<SessionStatus> = new Set(['completed', 'overpaid', 'expired', 'failed', 'cancelled']);

type InboxEvent =
  | { kind: 'detected'; deposit: DepositObservation }
  | { kind: 'confirmed'; deposit: ConfirmedDeposit }
  | { kind: 'reorged'; ref: DepositRef }
  | { kind: 'bank'; receipt: BankTransferReceipt };

/** What a run hands to the next after continue-as-new (long-lived sessions keep their history bounded). */
export interface Carried {
  state: SessionState;
  expiryReached: boolean;
  closedAt?: string;
}

const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

export async function checkoutSession(record: SessionRecord, carried?: Carried): Promise<SessionState> {
  const state: SessionState = carried?.state ?? {
    sessionId: record.sessionId,
    status: 'pending',
    version: 0,
    expiresAt: record.expiresAt,
    ...emptyLedger(),
    transitions: [{ status: 'pending', at: record.createdAt, reason: 'session created' }],
  };
  const terms: LedgerTerms = {
    amountUsdCents: BigInt(record.amountUsdCents),
    tolerance: { bps: record.tolerance.bps, minCents: BigInt(record.tolerance.minCents) },
    bankAccepted: record.supportedMethods.bank,
  };
  let expiryReached = carried?.expiryReached ?? false;
  let closedAt = carried?.closedAt;
  const inbox: InboxEvent[] = [];
  const withLock = createLock();
  const window = (): LedgerWindow => ({ closed: closedAt !== undefined, status: state.status });

  async function moveTo(status: SessionStatus, reason: string, close = FINAL.has(status)): Promise<void> {
    if (state.status === status) return;
    const at = new Date().toISOString();
    state.status = status;
    state.version += 1;
    state.transitions.push({ status, at, reason });
    if (close) closedAt ??= at;
    upsertSearchAttributes([{ key: SessionStatusAttribute, value: status }]);
    await records.recordStatusChange({ sessionId: record.sessionId, status, at, version: state.version });
    await announceStatus(record, state, status, at);
  }

  /** Settles what the ledger credited, once; a refused settlement fails the session. */
  async function settle(): Promise<boolean> {
    const source = settlementSource(state, terms);
    try {
      state.settlement = await settlement.settlePayment({
        sessionId: record.sessionId,
        merchantId: record.merchantId,
        mode: record.mode,
        chain: source.chain,
        token: source.token,
        receivedBaseUnits: source.baseUnits,
        decimals: source.decimals,
      });
      return true;
    } catch (error) {
      if (!(error instanceof ActivityFailure) || !(error.cause instanceof ApplicationFailure)) throw error;
      state.failureReason = error.cause.message;
      await moveTo('failed', `settlement refused: ${error.cause.message}`);
      return false;
    }
  }

  /** Moves to the status the ledger and the clock call for, settling first where it says so. */
  async function reconcile(reason: string): Promise<void> {
    if (window().closed) return;
    const decision = decideStatus(state, terms, expiryReached);
    if (decision.settle && !(await settle())) return;
    if (state.status !== decision.status) return moveTo(decision.status, reason, decision.close);
    if (decision.close) {
      closedAt = new Date().toISOString();
      state.transitions.push({ status: state.status, at: closedAt, reason: `${reason}; ${state.status} amount settled, session closed` });
    }
  }

  async function applyDeposit(outcome: DepositOutcome, reason: (txHash: string) => string): Promise<void> {
    if (outcome.kind === 'ignored') return;
    const { deposit } = outcome;
    if (outcome.kind === 'refund') {
      log.warn('deposit recorded for refund, not credited', { sessionId: record.sessionId, txHash: deposit.txHash, why: outcome.reason });
      state.transitions.push({ status: state.status, at: new Date().toISOString(), reason: `deposit ${deposit.txHash} recorded for refund: ${outcome.reason}` });
    }
    await records.recordDeposit(record.sessionId, record.mode, deposit, state.receivedBaseUnits);
    if (outcome.kind === 'refund') return;
    if (outcome.kind === 'mismatch') {
      state.failureReason = `${outcome.reason}; refund needed`;
      return moveTo('failed', state.failureReason);
    }
    return reconcile(reason(deposit.txHash));
  }

  async function creditBankTransfer(receipt: BankTransferReceipt): Promise<void> {
    const outcome = receiveBankTransfer(state, receipt, window(), terms);
    const note = (reason: string) => state.transitions.push({ status: state.status, at: new Date().toISOString(), reason });
    if (outcome.kind === 'duplicate') {
      if (!outcome.sameAmount) {
        log.warn('bank reference marked again with another amount; ignored', { sessionId: record.sessionId, reference: receipt.reference });
        note(`bank transfer ${receipt.reference} marked again with another amount (${receipt.amountUsdCents} cents); ignored`);
      }
      return;
    }
    if (outcome.kind === 'refund') return void note(`bank transfer ${receipt.reference} recorded for refund: ${outcome.reason}`);
    await records.recordBankPayment(record.sessionId, record.amountUsdCents, state.bankReceivedCents, receipt.reference);
    await reconcile(`bank transfer ${receipt.reference} marked received by ${receipt.receivedBy}`);
  }

  function handle(event: InboxEvent): Promise<void> {
    switch (event.kind) {
      case 'detected':
        return applyDeposit(observeDeposit(state, event.deposit, window()), (tx) => `deposit ${tx} detected`);
      case 'confirmed':
        return applyDeposit(confirmDeposit(state, event.deposit, window()), (tx) => `deposit ${tx} confirmed with ${event.deposit.confirmations} confirmations`);
      case 'reorged':
        return applyDeposit(reorgDeposit(state, event.ref), (tx) => `deposit ${tx} left the canonical chain`);
      case 'bank':
        return creditBankTransfer(event.receipt);
    }
  }

  const refuseSelection = (): void => {
    if (window().closed) throw refuse(WorkflowFailure.SelectionRefused, `The session is ${state.status}`);
    if (state.deposits.length > 0) {
      throw refuse(WorkflowFailure.SelectionRefused, 'A deposit has already been detected for this session; the payment method can no longer change');
    }
  };
  async function selectPayment(selection: PaymentSelection): Promise<PaymentInstructions> {
    refuseSelection();
    let instructions;
    try {
      instructions = await paymentSetup.preparePayment(record, selection);
    } catch (error) {
      if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === WorkflowFailure.SelectionRefused) {
        throw refuse(WorkflowFailure.SelectionRefused, error.cause.message);
      }
      throw error;
    }
    refuseSelection();
    state.selection = instructions;
    upsertSearchAttributes([
      { key: ChainAttribute, value: selection.chain },
      { key: TokenAttribute, value: selection.token },
    ]);
    await moveTo('awaiting_payment', `${selection.token} on ${selection.chain} selected`);
    return instructions;
  }

  const refuseCancel = (): void => {
    if (window().closed || hasReceivedAnything(state)) {
      throw refuse(WorkflowFailure.CancelRefused, `A session that is ${state.status}${hasReceivedAnything(state) ? ' with payments received' : ''} cannot be cancelled`);
    }
  };

  setHandler(messages.getStateQuery, () => ({ ...state, refunds: refundsDue(state) }));
  setHandler(messages.depositDetectedSignal, (deposit) => void inbox.push({ kind: 'detected', deposit }));
  setHandler(messages.depositConfirmedSignal, (deposit) => void inbox.push({ kind: 'confirmed', deposit }));
  setHandler(messages.depositReorgedSignal, (ref) => void inbox.push({ kind: 'reorged', ref }));
  setHandler(messages.bankTransferReceivedSignal, (receipt) => void inbox.push({ kind: 'bank', receipt }));
  setHandler(messages.confirmationsSignal, (progress) => countConfirmations(state, progress));
  setHandler(messages.selectPaymentUpdate, (selection) => withLock(() => selectPayment(selection)), {
    validator: (selection: PaymentSelection) => {
      if (!record.supportedTokens[selection.token]?.includes(selection.chain)) {
        throw refuse(WorkflowFailure.SelectionRefused, `${selection.token} on ${selection.chain} is not supported for this session`);
      }
      refuseSelection();
    },
  });
  setHandler(
    messages.cancelUpdate,
    (request) =>
      withLock(async () => {
        refuseCancel();
        await moveTo('cancelled', `cancelled by ${request.by}: ${request.reason}`);
        return state;
      }),
    { validator: (_request: messages.CancelRequest) => refuseCancel() },
  );
  setHandler(
    messages.simulateUpdate,
    ({ status }) =>
      withLock(async () => {
        await simulateStatus({ record, state, terms, status, settle, moveTo });
        return { session_id: record.sessionId, status: state.status };
      }),
    {
      validator: (_request: { status: SessionStatus }) => {
        if (record.mode !== 'test') throw refuse(WorkflowFailure.SimulateRefused, 'Simulation is only available for test sessions');
      },
    },
  );

  if (!carried) await records.recordSession(record);

  const lateWindowMs = record.lateDepositWatchHours * 3_600_000;
  for (;;) {
    const deadline = closedAt
      ? Math.max(Date.parse(record.expiresAt), Date.parse(closedAt)) + lateWindowMs
      : expiryReached
        ? Number.POSITIVE_INFINITY
        : Date.parse(record.expiresAt);
    const wait = deadline - Date.now();
    const woke = wait > 0 ? await condition(() => inbox.length > 0, Number.isFinite(wait) ? wait : undefined) : false;
    if (!woke && closedAt && inbox.length === 0) break;
    if (!woke && !expiryReached) {
      expiryReached = true;
      await withLock(() => reconcile('session reached expires_at'));
    }
    while (inbox.length > 0) {
      const event = inbox.shift() as InboxEvent;
      await withLock(() => handle(event));
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof checkoutSession>(record, { state, expiryReached, ...(closedAt ? { closedAt } : {}) });
    }
  }
  await condition(allHandlersFinished);
  return state;
}
