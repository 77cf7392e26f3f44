// One run of a session workflow: its state, and the steps that change it. Each step asks the session
// ledger (domain/session/sessionLedger.ts) what the money means, then moves the status and calls the activities
// that record and announce it. The workflow function (checkoutSession.ts) feeds it signals and updates.
import {
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  log,
  ParentClosePolicy,
  patched,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import type { Chain, TokenSymbol } from '../domain/chains/chains';
import { depositCreditRefusal } from '../domain/refunds/depositCredit';
import { asRecorded, type ConfirmedDeposit, type DepositObservation, type DepositRef } from '../domain/session/deposit';
import type { PaymentInstructions, PaymentSelection } from '../domain/wire/payment';
import { selectionLimitRefusal } from '../domain/wire/paymentSelectionLimit';
import type { SessionRecord, SessionStatusChange } from '../domain/wire/session';
import {
  confirmDeposit,
  creditKeptDeposit,
  DEFAULT_MINIMUM_DEPOSIT_CENTS,
  decideStatus,
  emptyLedger,
  forgetUnbacked,
  hasCreditableDeposit,
  hasPaymentUnderWay,
  observeDeposit,
  receiveBankTransfer,
  reorgDeposit,
  settlementParts,
  type DepositOutcome,
  type LedgerTerms,
  type LedgerWindow,
} from '../domain/session/sessionLedger';
import { cryptoPartOwed } from '../domain/settlement/unitOwnership';
import { paymentIdForSession } from '../domain/wire/ids';
import type { BankTransferReceipt, SessionState } from '../domain/session/sessionState';
import { CLOSED_STATUSES, type SessionStatus } from '../domain/wire/status';
import { WorkflowFailure } from '../domain/session/workflowFailures';
import { activityFailureOfType } from './activityFailures';
import { announceStatus } from './announceStatus';
import { ChainAttribute, SessionStatusAttribute, TokenAttribute } from './searchAttributes';
import type { CreditDepositRequest } from './messages';
import { issuePaymentInstructions } from './paymentPreparation';
import { records } from './sessionActivities';
import { settlePayment, type SettlementInput } from './settlePayment';
import { simulateStatus } from './simulateStatus';

export type InboxEvent =
  | { kind: 'detected'; deposit: DepositObservation }
  | { kind: 'confirmed'; deposit: ConfirmedDeposit }
  | { kind: 'reorged'; ref: DepositRef }
  | { kind: 'bank'; receipt: BankTransferReceipt }
  /** A deposit the merchant credited (creditDeposit): the session's status follows in the main loop, not in the update. */
  | { kind: 'credited'; reason: string };

/** What a run hands to the next after continue-as-new (long-lived sessions keep their history bounded). */
export interface Carried {
  state: SessionState;
  expiryReached: boolean;
  closedAt?: string;
}

export const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

/** A status change the workflow makes: always with its reason, for the merchant's timeline. */
type StatusChange = SessionStatusChange & { reason: string };

const selectedReason = (selection: PaymentSelection) => `${selection.token} on ${selection.chain} selected`;

/** An activity's refusal of the pair reaches the API as the workflow's own; anything else fails the update as it is. */
function refusedSelection(error: unknown): unknown {
  const refused = activityFailureOfType(error, WorkflowFailure.SelectionRefused);
  return refused ? refuse(WorkflowFailure.SelectionRefused, refused.message) : error;
}

export class SessionRun {
  readonly state: SessionState;
  readonly terms: LedgerTerms;
  expiryReached: boolean;
  closedAt: string | undefined;

  constructor(
    readonly record: SessionRecord,
    carried?: Carried,
  ) {
    this.state = carried?.state ?? {
      sessionId: record.sessionId,
      status: 'pending',
      version: 0,
      expiresAt: record.expiresAt,
      ...emptyLedger(),
      transitions: [{ status: 'pending', at: record.createdAt, reason: 'session created' }],
    };
    this.terms = {
      amountUsdCents: BigInt(record.amountUsdCents),
      tolerance: { bps: record.tolerance.bps, minCents: BigInt(record.tolerance.minCents) },
      bankAccepted: record.supportedMethods.bank,
      minimumDepositMicro: BigInt(record.minimumDepositCents ?? DEFAULT_MINIMUM_DEPOSIT_CENTS) * 10_000n,
      underpaidExpiry: record.underpaidExpiry ?? 'settle',
    };
    this.expiryReached = carried?.expiryReached ?? false;
    this.closedAt = carried?.closedAt;
  }

  carried(): Carried {
    return { state: this.state, expiryReached: this.expiryReached, ...(this.closedAt ? { closedAt: this.closedAt } : {}) };
  }

  window(): LedgerWindow {
    return { closed: this.closedAt !== undefined, status: this.state.status };
  }

  /**
   * When the workflow next has something to do on its own: expiry, or its end once the session closed. It
   * does not wait for late deposits: the indexer records those as late itself (indexers/core/signalOutbox.ts),
   * so a closed session holds no open workflow.
   */
  deadline(): number {
    if (this.closedAt) return Date.parse(this.closedAt);
    return this.expiryReached ? Number.POSITIVE_INFINITY : Date.parse(this.record.expiresAt);
  }

  async moveTo(status: SessionStatus, reason: string, close = CLOSED_STATUSES.has(status)): Promise<void> {
    const change = this.nextChange(status, reason);
    if (!change) return;
    this.adopt(change, close);
    await records.recordStatusChange(change);
    await announceStatus(this.record, this.state, status, change.at);
  }

  /** The move to `status`, numbered after the last; none when the session is there already. */
  private nextChange(status: SessionStatus, reason: string): StatusChange | undefined {
    if (this.state.status === status) return undefined;
    return { sessionId: this.record.sessionId, status, at: new Date().toISOString(), version: this.state.version + 1, reason };
  }

  /** The change into the state; `alsoIndexed` are search attributes that change with it, in the same command. */
  private adopt(change: StatusChange, close: boolean, alsoIndexed: SearchAttributeUpdatePair[] = []): void {
    const { state } = this;
    state.status = change.status;
    state.version = change.version;
    state.transitions.push({ status: change.status, at: change.at, reason: change.reason });
    if (close) this.closedAt ??= change.at;
    upsertSearchAttributes([{ key: SessionStatusAttribute, value: change.status }, ...alsoIndexed]);
  }

  private note(reason: string): void {
    this.state.transitions.push({ status: this.state.status, at: new Date().toISOString(), reason });
  }

  /**
   * Settles what the ledger credited, by the route it takes (domain/settlement/settlementRoute.ts): the crypto part in a
   * child workflow (settlePayment.ts) so a payout's polling stays out of the session's history, the bank part (already in
   * the merchant's account) recorded as it is. A crypto route that is unavailable, a settlement refused, or a payout
   * that landed and failed fails the session, each with its reason (docs/lifecycle.md#settlement-failures); funds stay
   * at the deposit address.
   */
  async settle(): Promise<boolean> {
    const { state, record } = this;
    const { crypto, bank } = settlementParts(state);
    let route: SettlementInput['route'] | undefined;
    if (crypto) {
      const backing = state.simulated?.receipt ? 'simulated' : 'chain';
      const chosen = await records.settlementRoute({ mode: record.mode, chain: crypto.chain, token: crypto.token, backing });
      if (chosen === 'unavailable')
        return this.refuseSettlement(
          `No ${record.mode} settlement route for ${crypto.token} on ${crypto.chain}; funds are held at the deposit address`,
        );
      route = chosen;
    }
    const paymentId = paymentIdForSession(record.sessionId);
    if (bank) {
      state.settlement = await records.settleBankPart({
        paymentId,
        sessionId: record.sessionId,
        usdCents: bank.usdCents.toString(),
        references: bank.references,
      });
    }
    const owed = cryptoPartOwed(state, this.terms.amountUsdCents);
    // Bank transfers that already pay the whole price leave the crypto deposits wholly the customer's.
    if (!crypto || !route || owed === 0n) return true;
    try {
      state.settlement = await executeChild(settlePayment, {
        workflowId: `settle_${paymentId}`,
        // A payout under way finishes even if the session's workflow is ended: the merchant is owed it.
        parentClosePolicy: ParentClosePolicy.ABANDON,
        args: [
          {
            route,
            paymentId,
            sessionId: record.sessionId,
            merchantId: record.merchantId,
            mode: record.mode,
            // The merchant's price at the quoted rate less what it holds from bank transfers, never the units received
            // (docs/settlement.md#who-owns-each-unit).
            amountUsdcBaseUnits: owed.toString(),
          },
        ],
      });
      return true;
    } catch (error) {
      if (!(error instanceof ChildWorkflowFailure) || !(error.cause instanceof ApplicationFailure)) throw error;
      // A payout that landed and failed paid nothing, like a refusal, but needs an operator's decision to pay again.
      const failed = error.cause.type === WorkflowFailure.PayoutFailed;
      return this.refuseSettlement(error.cause.message, failed ? 'settlement failed' : 'settlement refused');
    }
  }

  private async refuseSettlement(reason: string, kind = 'settlement refused'): Promise<false> {
    this.state.failureReason = reason;
    await this.moveTo('failed', `${kind}: ${reason}`);
    return false;
  }

  /** Moves to the status the ledger and the clock call for, settling first where the ledger says so. */
  async reconcile(reason: string): Promise<void> {
    if (this.window().closed) return;
    const decision = decideStatus(this.state, this.terms, this.expiryReached);
    // Only sessions created with the merchant's choice `refund` come here; the marker keeps their histories apart.
    if (decision.refund && patched('underpaid-expiry-refund')) {
      await records.refundUnderpaidSession(this.record.sessionId);
      return this.moveTo(decision.status, `${reason}; underpaid: what arrived is refunded to the customer, as the merchant chose`, true);
    }
    if (decision.settle && !(await this.settle())) return;
    if (this.state.status !== decision.status) return this.moveTo(decision.status, reason, decision.close);
    if (decision.close) return this.restate(`${reason}; ${this.state.status} amount settled, session closed`);
  }

  /**
   * Closes the session in the status it has, as a change of its own: the merchant hears of the settlement the first
   * announcement could not carry (an underpaid session settled at expiry, docs/webhooks.md#payload).
   */
  private async restate(reason: string): Promise<void> {
    const { state, record } = this;
    const change: StatusChange = {
      sessionId: record.sessionId,
      status: state.status,
      at: new Date().toISOString(),
      version: state.version + 1,
      reason,
    };
    this.adopt(change, true);
    await records.recordStatusChange(change);
    await announceStatus(record, state, change.status, change.at);
  }

  expire(): Promise<void> {
    this.expiryReached = true;
    return this.reconcile('session reached expires_at');
  }

  handle(event: InboxEvent): Promise<void> {
    const { state } = this;
    switch (event.kind) {
      case 'detected':
        return this.detect(event.deposit);
      case 'confirmed':
        return this.confirm(event.deposit);
      case 'reorged':
        return this.applyDeposit(reorgDeposit(state, event.ref), (tx) => `deposit ${tx} left the canonical chain`);
      case 'bank':
        return this.creditBankTransfer(event.receipt);
      case 'credited':
        return this.reconcile(event.reason);
    }
  }

  /** Tracks a detection on the indexer's facts only: the signal names the deposit, the indexer's row says what it is. */
  private async detect(signalled: DepositRef): Promise<void> {
    const { chain, txHash, logIndex } = signalled;
    const facts = await records.recordedDepositFacts(this.record.sessionId, this.record.mode, { chain, txHash, logIndex });
    if (!facts) return this.note(`detection of deposit ${txHash} is not backed by the indexer's records; not tracked`);
    const deposit = asRecorded(signalled, facts);
    return this.applyDeposit(observeDeposit(this.state, deposit, this.window(), this.terms), (tx) => `deposit ${tx} detected`);
  }

  /** Credits a confirmation on the indexer's facts only: the signal names the deposit, the indexer's row says what it is. */
  private async confirm(signalled: ConfirmedDeposit): Promise<void> {
    const { chain, txHash, logIndex } = signalled;
    const facts = await records.confirmedDepositFacts(this.record.sessionId, this.record.mode, { chain, txHash, logIndex });
    if (!facts) {
      forgetUnbacked(this.state, signalled);
      this.note(`confirmation of deposit ${txHash} is not backed by the indexer's records; not credited`);
      return this.reconcile(`deposit ${txHash} confirmation refused`);
    }
    const deposit: ConfirmedDeposit = { chain, txHash, logIndex, ...facts };
    return this.applyDeposit(
      confirmDeposit(this.state, deposit, this.window(), this.terms),
      (tx) => `deposit ${tx} confirmed with ${facts.confirmations} confirmations`,
    );
  }

  private async applyDeposit(outcome: DepositOutcome, reason: (txHash: string) => string): Promise<void> {
    if (outcome.kind === 'ignored') return;
    const { deposit } = outcome;
    if (outcome.kind === 'refund') {
      log.warn('deposit recorded for refund, not credited', {
        sessionId: this.record.sessionId,
        txHash: deposit.txHash,
        why: outcome.reason,
      });
      this.note(`deposit ${deposit.txHash} recorded for refund: ${outcome.reason}`);
    }
    await records.recordDeposit(this.record.sessionId, this.record.mode, deposit, this.state.receivedBaseUnits);
    if (outcome.kind === 'refund') return;
    return this.reconcile(reason(deposit.txHash));
  }

  private async creditBankTransfer(receipt: BankTransferReceipt): Promise<void> {
    const { state, record } = this;
    const outcome = receiveBankTransfer(state, receipt, this.window(), this.terms);
    if (outcome.kind === 'duplicate') {
      if (!outcome.sameAmount) {
        log.warn('bank reference marked again with another amount; ignored', { sessionId: record.sessionId, reference: receipt.reference });
        this.note(`bank transfer ${receipt.reference} marked again with another amount (${receipt.amountUsdCents} cents); ignored`);
      }
      return;
    }
    if (outcome.kind === 'refund') {
      this.note(`bank transfer ${receipt.reference} recorded for refund: ${outcome.reason}`);
      return records.recordBankReceipt({ sessionId: record.sessionId, receipt });
    }
    await records.recordBankReceipt({
      sessionId: record.sessionId,
      receipt,
      credited: { expectedUsdCents: record.amountUsdCents, creditedUsdCents: state.bankReceivedCents },
    });
    await this.reconcile(`bank transfer ${receipt.reference} marked received by ${receipt.receivedBy}`);
  }

  refuseSelection(selection?: PaymentSelection): void {
    if (selection && !this.record.supportedTokens[selection.token]?.includes(selection.chain)) {
      throw refuse(WorkflowFailure.SelectionRefused, `${selection.token} on ${selection.chain} is not supported for this session`);
    }
    if (this.window().closed) throw refuse(WorkflowFailure.SelectionRefused, `The session is ${this.state.status}`);
    if (hasCreditableDeposit(this.state)) {
      throw refuse(
        WorkflowFailure.SelectionRefused,
        'A deposit has already been detected for this session; the payment method can no longer change',
      );
    }
    const limit = selectionLimitRefusal(this.state.selectionsMade ?? 0);
    if (limit) throw refuse(WorkflowFailure.SelectionRefused, limit);
  }

  async selectPayment(selection: PaymentSelection): Promise<PaymentInstructions> {
    this.refuseSelection(selection);
    return this.choosePayment(selection, selectedReason(selection));
  }

  private async choosePayment(selection: PaymentSelection, reason: string): Promise<PaymentInstructions> {
    // The choice and the move to awaiting_payment are written together. The lock (checkoutSession.ts) keeps every
    // other change of the session out while they are, so the state takes them as written.
    const change = this.nextChange('awaiting_payment', reason);
    let instructions;
    try {
      instructions = await issuePaymentInstructions(this.record, selection, change);
    } catch (error) {
      throw refusedSelection(error);
    }
    const indexed = this.adoptSelection(instructions);
    if (!change) {
      upsertSearchAttributes(indexed);
      return instructions;
    }
    this.adopt(change, false, indexed);
    await announceStatus(this.record, this.state, change.status, change.at);
    return instructions;
  }

  /** The choice into the state; the search attributes it changes, for the caller to write. */
  private adoptSelection(instructions: PaymentInstructions): SearchAttributeUpdatePair[] {
    this.state.selection = instructions;
    this.state.selectionsMade = (this.state.selectionsMade ?? 0) + 1;
    return [
      { key: ChainAttribute, value: instructions.chain },
      { key: TokenAttribute, value: instructions.token },
    ];
  }

  /** The pairs of what counts toward the session already: deposits credited or confirming, a credited amount. */
  private countedPairs(): Array<{ chain: Chain; token: TokenSymbol }> {
    const { state } = this;
    const pairs = state.deposits.filter((d) => !d.late && d.stage !== 'reorged').map(({ chain, token }) => ({ chain, token }));
    if (state.selection && BigInt(state.receivedBaseUnits) > 0n) pairs.push({ chain: state.selection.chain, token: state.selection.token });
    return pairs;
  }

  /**
   * The merchant credits an unmatched deposit (docs/refunds.md#crediting-an-unmatched-deposit): judged on the indexer's
   * row and its refund (domain/refunds/depositCredit.ts), the payment switched to its pair as a customer's choice
   * would, then the credit written with its refund's cancellation in one activity, which refuses a refund claimed
   * meanwhile. From there the session goes on as for any credited deposit: the answer is the reason of the move it
   * calls for, which the main loop makes, so the merchant does not wait on a settlement.
   */
  async creditDeposit(request: CreditDepositRequest): Promise<string> {
    // Its commands are new to a session's history: the marker keeps histories recorded before it replayable.
    patched('credit-unmatched-deposit');
    const { state, record } = this;
    const ref = { chain: request.chain, txHash: request.txHash, logIndex: request.logIndex };
    const facts = await records.unmatchedDepositFacts(record.sessionId, record.mode, ref);
    if (!facts) throw refuse(WorkflowFailure.DepositCreditRefused, `No confirmed deposit ${ref.txHash} on ${ref.chain} for this session`);
    const { deposit, decimals } = facts;
    const refusal = depositCreditRefusal(
      { chain: deposit.chain, token: deposit.token, amountBaseUnits: BigInt(deposit.amount), decimals, refund: facts.refund },
      {
        open: !this.window().closed && !this.expiryReached,
        supportedTokens: record.supportedTokens,
        countedPairs: this.countedPairs(),
        minimumDepositMicro: this.terms.minimumDepositMicro,
      },
    );
    if (refusal) throw refuse(WorkflowFailure.DepositCreditRefused, refusal.message);
    const pair = { token: deposit.token, chain: deposit.chain };
    if (state.selection?.chain !== pair.chain || state.selection.token !== pair.token)
      await this.choosePayment(pair, `${pair.token} on ${pair.chain} selected by ${request.by} to credit deposit ${ref.txHash}`);
    const credit = await records.creditUnmatchedDeposit({
      sessionId: record.sessionId,
      mode: record.mode,
      deposit: ref,
      creditedTotalBaseUnits: (BigInt(state.receivedBaseUnits) + BigInt(deposit.amount)).toString(),
      by: request.by,
    });
    if (!credit.credited) throw refuse(WorkflowFailure.DepositCreditRefused, credit.refusal);
    creditKeptDeposit(state, deposit);
    const reason = `deposit ${ref.txHash} (${pair.token} on ${pair.chain}) credited by ${request.by}; its refund ${credit.refundId} cancelled`;
    this.note(reason);
    return reason;
  }

  refuseCancel(): void {
    const underWay = hasPaymentUnderWay(this.state);
    if (this.window().closed || underWay) {
      throw refuse(
        WorkflowFailure.CancelRefused,
        `A session that is ${this.state.status}${underWay ? ' with a payment under way' : ''} cannot be cancelled`,
      );
    }
  }

  async cancel(reason: string, by: string): Promise<SessionState> {
    this.refuseCancel();
    await this.moveTo('cancelled', `cancelled by ${by}: ${reason}`);
    return this.state;
  }

  simulate(status: SessionStatus): Promise<void> {
    return simulateStatus({
      record: this.record,
      state: this.state,
      terms: this.terms,
      status,
      settle: () => this.settle(),
      moveTo: (s, r) => this.moveTo(s, r),
    });
  }
}
