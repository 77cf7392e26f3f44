// One workflow per checkout session (workflow id = session id). It alone decides the session's status;
// the read model follows through activities, merchants hear through webhook child workflows.
//
//   pending ─selectPayment→ awaiting_payment ─depositDetected→ confirming ─depositConfirmed→ judged:
//   within tolerance → settle → completed; above → settle → overpaid; below → underpaid (more deposits
//   may complete it until expires_at; at expiry what arrived is settled). Unpaid at expires_at → expired.
//   cancel → cancelled; settlement refused or a wrong token deposited → failed; reorg → back a step.
// After closing, the workflow stays open for the late-deposit window, recording (never crediting) deposits.
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities';
import { judgeAmount } from '../domain/amountJudgement';
import { buildWebhookPayload, EVENT_FOR_STATUS } from '../domain/webhookPayload';
import type { SessionRecord } from '../domain/session';
import type { SessionStatus } from '../domain/status';
import { createLock } from './lock';
import {
  bankTransferReceivedSignal,
  cancelUpdate,
  confirmationsSignal,
  depositConfirmedSignal,
  depositDetectedSignal,
  depositReorgedSignal,
  getStateQuery,
  selectPaymentUpdate,
  simulateUpdate,
  type BankTransferReceipt,
  type CancelRequest,
  type ConfirmedDeposit,
  type DepositObservation,
  type DepositRef,
  type DepositState,
  type PaymentSelection,
  type SessionState,
} from './messages';
import { ChainAttribute, SessionStatusAttribute, TokenAttribute } from './searchAttributes';
import { webhookDelivery } from './webhookDelivery';

// Database writes retry without limit: a decision the workflow made must reach the read model.
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// Settlement talks to providers: longer calls, and business refusals are final.
const settlement = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', nonRetryableErrorTypes: ['SettlementUnavailable'] },
});
// select-payment answers a waiting customer: a few quick tries, then the update fails.
const interactive = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 5, nonRetryableErrorTypes: ['SelectionRefused'] },
});

const FINAL: ReadonlySet<SessionStatus> = new Set(['completed', 'overpaid', 'expired', 'failed', 'cancelled']);
const depositKey = (d: DepositRef) => `${d.chain}:${d.txHash}:${d.logIndex}`;

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

export async function checkoutSession(record: SessionRecord, carried?: Carried): Promise<SessionState> {
  const state: SessionState = carried?.state ?? {
    sessionId: record.sessionId,
    status: 'pending',
    version: 0,
    expiresAt: record.expiresAt,
    deposits: [],
    receivedBaseUnits: '0',
    transitions: [{ status: 'pending', at: record.createdAt, reason: 'session created' }],
  };
  let expiryReached = carried?.expiryReached ?? false;
  let closedAt = carried?.closedAt;
  const inbox: InboxEvent[] = [];
  const withLock = createLock();
  const isClosed = () => closedAt !== undefined;

  async function moveTo(status: SessionStatus, reason: string): Promise<void> {
    if (state.status === status) return;
    const at = new Date().toISOString();
    state.status = status;
    state.version += 1;
    state.transitions.push({ status, at, reason });
    if (FINAL.has(status) || (status === 'underpaid' && expiryReached)) closedAt ??= at;
    upsertSearchAttributes([{ key: SessionStatusAttribute, value: status }]);
    await acts.recordStatusChange({ sessionId: record.sessionId, status, at, version: state.version });
    await announce(status, at);
  }

  /** The webhook of a status change: one delivery per (change, event), delivered by a child workflow. */
  async function announce(status: SessionStatus, at: string): Promise<void> {
    const event = EVENT_FOR_STATUS[status];
    if (!event) return;
    const selection = state.selection;
    const body = JSON.stringify(
      buildWebhookPayload({
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
        ...(state.settlement ? { settlement: { amountUsdcBaseUnits: state.settlement.amountUsdc, settledAt: state.settlement.settledAt } } : {}),
        timestamp: at,
      }),
    );
    const deliveryId = await acts.createWebhookDelivery({ sessionId: record.sessionId, event, statusVersion: state.version, url: record.webhookUrl, body });
    try {
      await startChild(webhookDelivery, { workflowId: deliveryId, args: [{ deliveryId }], parentClosePolicy: ParentClosePolicy.ABANDON });
    } catch (error) {
      // Already started by an earlier run of this workflow (before a continue-as-new): nothing to do.
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  async function settle(chain: NonNullable<SessionState['selection']>['chain'], token: NonNullable<SessionState['selection']>['token'], received: string, decimals: number): Promise<boolean> {
    try {
      state.settlement = await settlement.settlePayment({ sessionId: record.sessionId, merchantId: record.merchantId, mode: record.mode, chain, token, receivedBaseUnits: received, decimals });
      return true;
    } catch (error) {
      if (!(error instanceof ActivityFailure) || !(error.cause instanceof ApplicationFailure)) throw error;
      state.failureReason = error.cause.message;
      await moveTo('failed', `settlement refused: ${error.cause.message}`);
      return false;
    }
  }

  /** Derives the status the deposits, the amount and the clock call for, and moves there. */
  async function reconcile(reason: string): Promise<void> {
    if (isClosed()) return;
    const selection = state.selection;
    if (state.deposits.some((d) => d.stage === 'detected' && !d.late)) return moveTo('confirming', reason);
    const received = BigInt(state.receivedBaseUnits);
    if (!selection || received === 0n) {
      if (expiryReached) return moveTo('expired', reason);
      return moveTo(selection ? 'awaiting_payment' : 'pending', reason);
    }
    const tolerance = { bps: record.tolerance.bps, minCents: BigInt(record.tolerance.minCents) };
    const verdict = judgeAmount(received, BigInt(selection.amount_base_units), selection.decimals, tolerance);
    if (verdict === 'under' && !expiryReached) return moveTo('underpaid', reason);
    if (!(await settle(selection.chain, selection.token, state.receivedBaseUnits, selection.decimals))) return;
    if (verdict === 'under') {
      closedAt ??= new Date().toISOString();
      state.transitions.push({ status: 'underpaid', at: closedAt, reason: `${reason}; underpaid amount settled at expiry` });
      return;
    }
    await moveTo(verdict === 'exact' ? 'completed' : 'overpaid', reason);
  }

  async function recordLate(deposit: DepositState, why: string): Promise<void> {
    deposit.late = true;
    log.warn('deposit recorded for refund, not credited', { sessionId: record.sessionId, txHash: deposit.txHash, why });
    state.transitions.push({ status: state.status, at: new Date().toISOString(), reason: `deposit ${deposit.txHash} recorded for refund: ${why}` });
    await acts.recordDeposit(record.sessionId, record.mode, deposit, state.receivedBaseUnits);
  }

  function findOrAdd(observation: DepositObservation): { deposit: DepositState; isNew: boolean } {
    const existing = state.deposits.find((d) => depositKey(d) === depositKey(observation));
    if (existing) return { deposit: existing, isNew: false };
    // A detected deposit is in a block: that block is its first confirmation, as the indexers count.
    const deposit: DepositState = { ...observation, stage: 'detected', confirmations: 1, late: false };
    state.deposits.push(deposit);
    return { deposit, isNew: true };
  }

  /** Why a deposit cannot be credited to this session, if it cannot. */
  function mismatch(observation: DepositObservation): string | undefined {
    const selection = state.selection;
    if (isClosed()) return `arrived after the session closed as ${state.status}`;
    if (!selection) return 'arrived before a payment method was chosen';
    if (observation.chain !== selection.chain || observation.token !== selection.token) {
      return `${observation.token} on ${observation.chain} received, but the session expects ${selection.token} on ${selection.chain}`;
    }
    return undefined;
  }

  async function handle(event: InboxEvent): Promise<void> {
    switch (event.kind) {
      case 'detected': {
        const { deposit, isNew } = findOrAdd(event.deposit);
        if (!isNew && deposit.stage !== 'reorged') return;
        if (!isNew) {
          // The same transfer, re-mined in another block after a reorg: it counts again from there.
          Object.assign(deposit, { blockNumber: event.deposit.blockNumber, blockHash: event.deposit.blockHash, stage: 'detected', confirmations: 1 });
        }
        const problem = mismatch(deposit);
        if (problem && isClosed()) return recordLate(deposit, problem);
        await acts.recordDeposit(record.sessionId, record.mode, deposit, state.receivedBaseUnits);
        return reconcile(`deposit ${deposit.txHash} detected`);
      }
      case 'confirmed': {
        const { deposit } = findOrAdd(event.deposit);
        if (deposit.stage === 'confirmed' || deposit.late) return;
        Object.assign(deposit, { blockNumber: event.deposit.blockNumber, blockHash: event.deposit.blockHash });
        deposit.stage = 'confirmed';
        deposit.confirmations = Math.max(deposit.confirmations, event.deposit.confirmations);
        const problem = mismatch(deposit);
        if (problem && isClosed()) return recordLate(deposit, problem);
        if (problem) {
          deposit.late = true;
          await acts.recordDeposit(record.sessionId, record.mode, deposit, state.receivedBaseUnits);
          state.failureReason = `${problem}; refund needed`;
          return moveTo('failed', state.failureReason);
        }
        state.receivedBaseUnits = (BigInt(state.receivedBaseUnits) + BigInt(deposit.amount)).toString();
        await acts.recordDeposit(record.sessionId, record.mode, deposit, state.receivedBaseUnits);
        return reconcile(`deposit ${deposit.txHash} confirmed with ${deposit.confirmations} confirmations`);
      }
      case 'reorged': {
        const deposit = state.deposits.find((d) => depositKey(d) === depositKey(event.ref));
        if (!deposit || deposit.stage !== 'detected') return;
        deposit.stage = 'reorged';
        await acts.recordDeposit(record.sessionId, record.mode, deposit, state.receivedBaseUnits);
        return reconcile(`deposit ${deposit.txHash} left the canonical chain`);
      }
      case 'bank':
        return creditBankTransfer(event.receipt);
    }
  }

  async function creditBankTransfer(receipt: BankTransferReceipt): Promise<void> {
    if (isClosed() || !record.supportedMethods.bank) {
      state.transitions.push({ status: state.status, at: new Date().toISOString(), reason: `bank transfer ${receipt.reference} recorded for refund` });
      return;
    }
    const received = BigInt(state.bankReceivedCents ?? '0') + BigInt(receipt.amountUsdCents);
    state.bankReceivedCents = received.toString();
    await acts.recordBankPayment(record.sessionId, record.amountUsdCents, state.bankReceivedCents, receipt.reference);
    const tolerance = { bps: record.tolerance.bps, minCents: BigInt(record.tolerance.minCents) };
    const verdict = judgeAmount(received, BigInt(record.amountUsdCents), 2, tolerance);
    const reason = `bank transfer ${receipt.reference} marked received by ${receipt.receivedBy}`;
    if (verdict === 'under') return moveTo('underpaid', reason);
    // A bank payment settles as USDC too: cents become 6-decimal USDC base units.
    if (!(await settle('solana', 'USDC', (received * 10_000n).toString(), 6))) return;
    await moveTo(verdict === 'exact' ? 'completed' : 'overpaid', reason);
  }

  setHandler(getStateQuery, () => state);
  setHandler(depositDetectedSignal, (deposit) => void inbox.push({ kind: 'detected', deposit }));
  setHandler(depositConfirmedSignal, (deposit) => void inbox.push({ kind: 'confirmed', deposit }));
  setHandler(depositReorgedSignal, (ref) => void inbox.push({ kind: 'reorged', ref }));
  setHandler(bankTransferReceivedSignal, (receipt) => void inbox.push({ kind: 'bank', receipt }));
  setHandler(confirmationsSignal, (progress) => {
    const deposit = state.deposits.find((d) => depositKey(d) === depositKey(progress));
    if (deposit && deposit.stage === 'detected') deposit.confirmations = Math.max(deposit.confirmations, progress.confirmations);
  });

  const refuseSelection = (): void => {
    if (isClosed()) throw ApplicationFailure.create({ type: 'SelectionRefused', message: `The session is ${state.status}`, nonRetryable: true });
    if (state.deposits.length > 0) {
      throw ApplicationFailure.create({ type: 'SelectionRefused', message: 'A deposit has already been detected for this session; the payment method can no longer change', nonRetryable: true });
    }
  };
  setHandler(
    selectPaymentUpdate,
    (selection: PaymentSelection) =>
      withLock(async () => {
        refuseSelection();
        let instructions;
        try {
          instructions = await interactive.preparePayment(record, selection);
        } catch (error) {
          if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === 'SelectionRefused') {
            throw ApplicationFailure.create({ type: 'SelectionRefused', message: error.cause.message, nonRetryable: true });
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
      }),
    {
      validator: (selection: PaymentSelection) => {
        if (!record.supportedTokens[selection.token]?.includes(selection.chain)) {
          throw ApplicationFailure.create({ type: 'SelectionRefused', message: `${selection.token} on ${selection.chain} is not supported for this session`, nonRetryable: true });
        }
        refuseSelection();
      },
    },
  );

  setHandler(
    cancelUpdate,
    (request: CancelRequest) =>
      withLock(async () => {
        if (isClosed() || state.deposits.length > 0) {
          throw ApplicationFailure.create({ type: 'CancelRefused', message: `A session that is ${state.status} with deposits cannot be cancelled`, nonRetryable: true });
        }
        await moveTo('cancelled', `cancelled by ${request.by}: ${request.reason}`);
        return state;
      }),
    {
      validator: (_request: CancelRequest) => {
        if (isClosed() || state.deposits.length > 0) {
          throw ApplicationFailure.create({ type: 'CancelRefused', message: `A session that is ${state.status}${state.deposits.length > 0 ? ' with deposits' : ''} cannot be cancelled`, nonRetryable: true });
        }
      },
    },
  );

  setHandler(
    simulateUpdate,
    ({ status }: { status: SessionStatus }) =>
      withLock(async () => {
        await moveTo(status, 'simulated');
        return { session_id: record.sessionId, status: state.status };
      }),
    {
      validator: (_request: { status: SessionStatus }) => {
        if (record.mode !== 'test') throw ApplicationFailure.create({ type: 'SimulateRefused', message: 'Simulation is only available for test sessions', nonRetryable: true });
      },
    },
  );

  if (!carried) await acts.recordSession(record);

  const lateWindowMs = record.lateDepositWatchHours * 3_600_000;
  for (;;) {
    const deadline = isClosed()
      ? Math.max(Date.parse(record.expiresAt), Date.parse(closedAt as string)) + lateWindowMs
      : expiryReached
        ? Number.POSITIVE_INFINITY
        : Date.parse(record.expiresAt);
    const wait = deadline - Date.now();
    const woke = wait > 0 ? await condition(() => inbox.length > 0, Number.isFinite(wait) ? wait : undefined) : false;
    if (!woke && isClosed() && inbox.length === 0) break;
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
