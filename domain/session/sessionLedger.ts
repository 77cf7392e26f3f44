// The session's money: which deposits and bank transfers it holds, what is credited, the verdict on the
// amount, what is still due, what happens at expiry and what must be refunded. Pure and deterministic,
// so the workflow can run it and the tests can drive it without Temporal. Functions that take the
// ledger update it in place (it is the workflow's state) and say what happened, for the workflow to act on.
import { judgeAmount, toleranceBaseUnits, type AmountVerdict, type Tolerance } from './amountJudgement';
import type { Chain, TokenSymbol } from '../chains/chains';
import {
  depositFacts,
  depositKey,
  sameTransfer,
  type ConfirmedDeposit,
  type DepositConfirmations,
  type DepositObservation,
  type DepositRef,
  type DepositState,
} from './deposit';
import type { BankTransferReceipt, LedgerState, Refund } from './sessionState';
import type { SessionStatus } from '../wire/status';
import type { UnderpaidExpiry } from '../wire/session';

/** What the session asks for, fixed at creation. */
export interface LedgerTerms {
  amountUsdCents: bigint;
  tolerance: Tolerance;
  bankAccepted: boolean;
  /** Deposits worth less (in micro-units of the amount due) are dust: kept for a refund, never credited. */
  minimumDepositMicro: bigint;
  /** What the merchant chose for a session still underpaid at expiry (absent: settle). */
  underpaidExpiry?: UnderpaidExpiry;
}

/** One cent: a deposit worth less cannot pay for anything and is kept for a refund. */
export const DEFAULT_MINIMUM_DEPOSIT_CENTS = '1';

/** Refund-only deposits a workflow keeps in its state; older ones stay in Postgres (`deposits.late`) only. */
export const MAX_REFUND_DEPOSITS_IN_STATE = 20;

/** Whether the session still takes money; a closed one keeps what arrives for refunds. */
export interface LedgerWindow {
  closed: boolean;
  status: SessionStatus;
}

export type DepositOutcome =
  /** A duplicate or out-of-order signal: nothing changed. */
  | { kind: 'ignored' }
  /** Seen (or seen again after a reorg) and counting confirmations. */
  | { kind: 'tracked'; deposit: DepositState }
  | { kind: 'credited'; deposit: DepositState }
  | { kind: 'reorged'; deposit: DepositState }
  /**
   * Not creditable (the session is closed, another token or chain, dust): kept for a refund, the session
   * and its selected payment unchanged, so a customer's real payment still counts.
   */
  | { kind: 'refund'; deposit: DepositState; reason: string };

export type BankOutcome = { kind: 'duplicate'; sameAmount: boolean } | { kind: 'credited' } | { kind: 'refund'; reason: string };

/** A status the amounts call for, and whether reaching it settles the funds and closes the session. */
export interface Decision {
  status: SessionStatus;
  settle: boolean;
  close: boolean;
  /** Instead of settling, every credited deposit is owed back to the customer (docs/refunds.md#sources). */
  refund?: true;
}

export function emptyLedger(): LedgerState {
  return { deposits: [], receivedBaseUnits: '0', bankReceipts: [], bankReceivedCents: '0' };
}

/** Why a deposit cannot be credited to this session, if it cannot. */
export function depositMismatch(
  ledger: LedgerState,
  deposit: DepositObservation,
  window: LedgerWindow,
  terms: LedgerTerms,
): string | undefined {
  const selection = ledger.selection;
  if (window.closed) return `arrived after the session closed as ${window.status}`;
  if (!selection) return 'arrived before a payment method was chosen';
  if (deposit.chain !== selection.chain || deposit.token !== selection.token) {
    return `${deposit.token} on ${deposit.chain} received, but the session expects ${selection.token} on ${selection.chain}`;
  }
  if (toMicroUnits(BigInt(deposit.amount), selection.decimals) < terms.minimumDepositMicro) return 'below the minimum deposit';
  return undefined;
}

/** Marks a deposit refund-only, keeping at most MAX_REFUND_DEPOSITS_IN_STATE of them in the state. */
function keepForRefund(ledger: LedgerState, deposit: DepositState, reason: string): DepositOutcome {
  deposit.late = true;
  const refunds = ledger.deposits.filter((d) => d.late);
  const dropped = new Set(refunds.slice(0, Math.max(0, refunds.length - MAX_REFUND_DEPOSITS_IN_STATE)));
  if (dropped.size > 0) ledger.deposits = ledger.deposits.filter((d) => !dropped.has(d));
  return { kind: 'refund', deposit, reason };
}

function findDeposit(ledger: LedgerState, ref: DepositRef): DepositState | undefined {
  return ledger.deposits.find((d) => depositKey(d) === depositKey(ref));
}

function findOrAdd(ledger: LedgerState, observation: DepositObservation): { deposit: DepositState; isNew: boolean } {
  const existing = findDeposit(ledger, observation);
  if (existing) return { deposit: existing, isNew: false };
  // A detected deposit is in a block: that block is its first confirmation, as the indexers count.
  const deposit: DepositState = { ...observation, stage: 'detected', confirmations: 1, late: false };
  ledger.deposits.push(deposit);
  return { deposit, isNew: true };
}

export function observeDeposit(
  ledger: LedgerState,
  observation: DepositObservation,
  window: LedgerWindow,
  terms: LedgerTerms,
): DepositOutcome {
  const { deposit, isNew } = findOrAdd(ledger, observation);
  if (!isNew && deposit.stage !== 'reorged') return { kind: 'ignored' };
  if (!isNew) {
    // The same transfer (same key) included again after a reorg: it counts again from its new block.
    Object.assign(deposit, { blockNumber: observation.blockNumber, blockHash: observation.blockHash, stage: 'detected', confirmations: 1 });
  }
  const reason = depositMismatch(ledger, deposit, window, terms);
  return reason ? keepForRefund(ledger, deposit, reason) : { kind: 'tracked', deposit };
}

export function confirmDeposit(ledger: LedgerState, confirmed: ConfirmedDeposit, window: LedgerWindow, terms: LedgerTerms): DepositOutcome {
  const { deposit } = findOrAdd(ledger, confirmed);
  if (deposit.stage === 'confirmed' || (deposit.late && sameTransfer(deposit, confirmed))) return { kind: 'ignored' };
  // A confirmation carries the indexer's row: where the detection said otherwise, the row is what arrived, judged afresh.
  Object.assign(deposit, depositFacts(confirmed), { stage: 'confirmed', late: false });
  deposit.confirmations = Math.max(deposit.confirmations, confirmed.confirmations);
  const reason = depositMismatch(ledger, deposit, window, terms);
  if (reason) return keepForRefund(ledger, deposit, reason);
  ledger.receivedBaseUnits = (BigInt(ledger.receivedBaseUnits) + BigInt(deposit.amount)).toString();
  return { kind: 'credited', deposit };
}

/**
 * The merchant credited a deposit kept for a refund, once the selection is the deposit's pair
 * (docs/refunds.md#crediting-an-unmatched-deposit): it counts as a deposit credited on arrival. One the state no longer
 * held (MAX_REFUND_DEPOSITS_IN_STATE) comes back.
 */
export function creditKeptDeposit(ledger: LedgerState, confirmed: ConfirmedDeposit): DepositState {
  const { deposit } = findOrAdd(ledger, confirmed);
  Object.assign(deposit, depositFacts(confirmed), { stage: 'confirmed', late: false });
  deposit.confirmations = Math.max(deposit.confirmations, confirmed.confirmations);
  ledger.receivedBaseUnits = (BigInt(ledger.receivedBaseUnits) + BigInt(deposit.amount)).toString();
  return deposit;
}

/** Only a deposit still counting confirmations can leave the chain; a confirmed one is final. */
export function reorgDeposit(ledger: LedgerState, ref: DepositRef): DepositOutcome {
  const deposit = findDeposit(ledger, ref);
  if (!deposit || deposit.stage !== 'detected') return { kind: 'ignored' };
  deposit.stage = 'reorged';
  return { kind: 'reorged', deposit };
}

/**
 * A confirmation the indexer's records do not back credits nothing; a deposit the ledger only knew from
 * signals (detected, never credited) is forgotten with it, so it no longer holds the session confirming.
 */
export function forgetUnbacked(ledger: LedgerState, ref: DepositRef): boolean {
  const deposit = findDeposit(ledger, ref);
  if (!deposit || deposit.stage !== 'detected' || deposit.late) return false;
  ledger.deposits = ledger.deposits.filter((d) => d !== deposit);
  return true;
}

export function countConfirmations(ledger: LedgerState, progress: DepositConfirmations): void {
  const deposit = findDeposit(ledger, progress);
  if (deposit && deposit.stage === 'detected') deposit.confirmations = Math.max(deposit.confirmations, progress.confirmations);
}

/** Bank references are compared as banks print them: case and spacing vary between statements. */
const sameReference = (a: string, b: string) => a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();

/** Idempotent per reference: a receipt marked twice is one receipt; different references add up. */
export function receiveBankTransfer(
  ledger: LedgerState,
  receipt: BankTransferReceipt,
  window: LedgerWindow,
  terms: LedgerTerms,
): BankOutcome {
  const known = ledger.bankReceipts.find((r) => sameReference(r.reference, receipt.reference));
  if (known) return { kind: 'duplicate', sameAmount: known.amountUsdCents === receipt.amountUsdCents };
  if (window.closed || !terms.bankAccepted) {
    ledger.bankReceipts.push({ ...receipt, credited: false });
    return {
      kind: 'refund',
      reason: window.closed ? `arrived after the session closed as ${window.status}` : 'bank transfers are not accepted for this session',
    };
  }
  ledger.bankReceipts.push({ ...receipt, credited: true });
  ledger.bankReceivedCents = (BigInt(ledger.bankReceivedCents) + BigInt(receipt.amountUsdCents)).toString();
  return { kind: 'credited' };
}

/** Base units → whole micro-units (6 decimals); what lies below a micro-unit is never credited. */
export function toMicroUnits(baseUnits: bigint, decimals: number): bigint {
  return decimals >= 6 ? baseUnits / 10n ** BigInt(decimals - 6) : baseUnits * 10n ** BigInt(6 - decimals);
}

/**
 * Expected and credited amounts in one unit, micro-units of the amount due: with a token chosen, its
 * 6-decimal units at the quoted price; bank cents convert at that same price (exactly 10,000 per cent
 * at 1:1), so crypto and bank receipts add up to one credited total.
 */
export function creditedTotal(ledger: LedgerState, terms: LedgerTerms): { expected: bigint; received: bigint } {
  const selection = ledger.selection;
  const expected = selection ? toMicroUnits(BigInt(selection.amount_base_units), selection.decimals) : terms.amountUsdCents * 10_000n;
  const crypto = selection ? toMicroUnits(BigInt(ledger.receivedBaseUnits), selection.decimals) : 0n;
  const bank = terms.amountUsdCents > 0n ? (BigInt(ledger.bankReceivedCents) * expected) / terms.amountUsdCents : 0n;
  return { expected, received: crypto + bank };
}

export function amountVerdict(ledger: LedgerState, terms: LedgerTerms): AmountVerdict | 'nothing' {
  const { expected, received } = creditedTotal(ledger, terms);
  return received === 0n ? 'nothing' : judgeAmount(received, expected, 6, terms.tolerance);
}

/** Micro-units still to pay; zero once the credited total reaches the expected amount. */
export function amountDue(ledger: LedgerState, terms: LedgerTerms): bigint {
  const { expected, received } = creditedTotal(ledger, terms);
  return received >= expected ? 0n : expected - received;
}

/**
 * The status the money calls for. A deposit still confirming keeps the session `confirming`, also past
 * expiry (it was seen in time). At expiry an underpaid session settles what arrived and closes underpaid, or, when its
 * merchant chose `refund`, settles nothing and expires, all it was paid owed back to the customer: no sale was made,
 * as for a session that received nothing; with nothing credited it expires.
 */
export function decideStatus(ledger: LedgerState, terms: LedgerTerms, expiryReached: boolean): Decision {
  if (ledger.deposits.some((d) => d.stage === 'detected' && !d.late)) return { status: 'confirming', settle: false, close: false };
  const verdict = amountVerdict(ledger, terms);
  if (verdict === 'nothing') {
    if (expiryReached) return { status: 'expired', settle: false, close: true };
    return { status: ledger.selection ? 'awaiting_payment' : 'pending', settle: false, close: false };
  }
  if (verdict === 'under' && expiryReached && terms.underpaidExpiry === 'refund')
    return { status: 'expired', settle: false, close: true, refund: true };
  if (verdict === 'under') return { status: 'underpaid', settle: expiryReached, close: expiryReached };
  return { status: verdict === 'exact' ? 'completed' : 'overpaid', settle: true, close: true };
}

/** The crypto part of a settlement: the selected token's credited deposits, as received. */
export interface CryptoPart {
  chain: Chain;
  token: TokenSymbol;
  baseUnits: string;
  decimals: number;
}

/** The bank part: the credited transfers, already in the merchant's own account. */
export interface BankPart {
  usdCents: bigint;
  references: string[];
}

/**
 * What settles, in parts that never mix: the crypto deposits are paid out by their route, the bank transfers are
 * recorded as held by the merchant (docs/settlement.md#routes). Either part is absent when nothing of it was credited.
 */
export function settlementParts(ledger: LedgerState): { crypto?: CryptoPart; bank?: BankPart } {
  const selection = ledger.selection;
  const bankCents = BigInt(ledger.bankReceivedCents);
  const crypto: CryptoPart | undefined =
    selection && BigInt(ledger.receivedBaseUnits) > 0n
      ? { chain: selection.chain, token: selection.token, baseUnits: ledger.receivedBaseUnits, decimals: selection.decimals }
      : undefined;
  const bank: BankPart | undefined =
    bankCents > 0n ? { usdCents: bankCents, references: ledger.bankReceipts.filter((r) => r.credited).map((r) => r.reference) } : undefined;
  return { ...(crypto ? { crypto } : {}), ...(bank ? { bank } : {}) };
}

/** Credited token base units beyond the amount asked for: owed back to the customer (refund due). */
export function creditedExcess(ledger: LedgerState): bigint {
  if (!ledger.selection) return 0n;
  const excess = BigInt(ledger.receivedBaseUnits) - BigInt(ledger.selection.amount_base_units);
  return excess > 0n ? excess : 0n;
}

/**
 * Everything that reached the session and was not credited, and what was credited beyond the price: owed back. A
 * session that expired with deposits credited did so by its merchant's choice `refund` (decideStatus): every credited
 * deposit is then owed back whole.
 */
export function refundsDue(ledger: LedgerState & { status?: SessionStatus }): Refund[] {
  const refundedCredit = ledger.status === 'expired' && BigInt(ledger.receivedBaseUnits) > 0n;
  const deposits: Refund[] = ledger.deposits
    .filter((d) => d.late || (refundedCredit && d.stage === 'confirmed'))
    .map((d) => ({
      kind: 'deposit',
      chain: d.chain,
      txHash: d.txHash,
      logIndex: d.logIndex,
      token: d.token,
      amountBaseUnits: d.amount,
      fromAddress: d.fromAddress,
    }));
  const bank: Refund[] = ledger.bankReceipts
    .filter((r) => !r.credited)
    .map((r) => ({ kind: 'bank', reference: r.reference, amountUsdCents: r.amountUsdCents }));
  const excess = refundedCredit ? 0n : creditedExcess(ledger);
  const overpaid: Refund[] =
    ledger.selection && excess > 0n
      ? [{ kind: 'excess', chain: ledger.selection.chain, token: ledger.selection.token, amountBaseUnits: excess.toString() }]
      : [];
  return [...deposits, ...overpaid, ...bank];
}

/**
 * Once a creditable deposit was seen, the payment method can no longer change (a bank transfer does not
 * fix it: the rest may still come in crypto). Refund-only deposits (dust, another token) do not count.
 */
export function hasCreditableDeposit(ledger: LedgerState): boolean {
  return ledger.deposits.some((d) => !d.late);
}

/** Once a creditable deposit was seen or a bank transfer credited, the session can no longer be cancelled. */
export function hasPaymentUnderWay(ledger: LedgerState): boolean {
  return hasCreditableDeposit(ledger) || ledger.bankReceipts.some((r) => r.credited);
}

/**
 * Simulate (test sessions): the received amount that makes the selected payment judge as `status`, in
 * whole micro-units: the expected amount, half of it, or beyond the tolerance by a tenth.
 */
export function simulateReceipt(ledger: LedgerState, status: 'completed' | 'underpaid' | 'overpaid', terms: LedgerTerms): void {
  const selection = ledger.selection;
  if (!selection) throw new Error('a simulated receipt needs a selected payment');
  const expected = BigInt(selection.amount_base_units);
  const unit = selection.decimals > 6 ? 10n ** BigInt(selection.decimals - 6) : 1n;
  const tolerance = toleranceBaseUnits(expected, selection.decimals, terms.tolerance);
  const tenth = expected / 10n > unit ? expected / 10n : unit;
  const received = status === 'completed' ? expected : status === 'underpaid' ? expected / 2n : expected + tolerance + tenth;
  ledger.receivedBaseUnits = ((received / unit) * unit).toString();
}
