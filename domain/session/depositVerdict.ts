// What became of a deposit the indexer recorded for a session, in the merchant's words: credited to the payment, or
// owed back to the customer and why (docs/dashboard.md#deposits-and-money-owed-back). The workflow records only
// whether it credited or kept a deposit (deposits.credited, deposits.late), not why; the reason is read back here from
// the facts it judged, in the order depositMismatch (sessionLedger.ts) judges them.
import { toMicroUnits } from './sessionLedger';

export type OwedBackReason = 'late' | 'no_method' | 'other_chain' | 'other_token' | 'below_minimum';

export type DepositVerdict =
  | { kind: 'confirming' }
  | { kind: 'reorged' }
  /** Confirmed, not judged yet. */
  | { kind: 'awaiting_verdict' }
  | { kind: 'credited' }
  /** Credited, and part of it (refund due in the ledger) beyond the session's price. */
  | { kind: 'credited_with_excess' }
  | { kind: 'owed_back'; reason: OwedBackReason };

export interface DepositVerdictFacts {
  chain: string;
  token: string;
  amountBaseUnits: bigint;
  stage: string;
  credited: boolean;
  late: boolean;
  /** What the ledger posts as owed back to the customer from this deposit. */
  refundDueBaseUnits: bigint;
  /** When the indexer recorded it. */
  seenAt: Date;
}

export interface SessionTermsForVerdict {
  /** The chosen pair, if one was chosen. */
  payment: { chain: string; token: string; decimals: number } | null;
  /** When the session reached a closed status, if it did. */
  closedAt: Date | undefined;
  /** Deposits worth less (in micro-units of the amount due) are dust. */
  minimumDepositMicro: bigint;
}

export function depositVerdict(d: DepositVerdictFacts, terms: SessionTermsForVerdict): DepositVerdict {
  if (d.stage === 'reorged') return { kind: 'reorged' };
  if (d.credited) return d.refundDueBaseUnits > 0n ? { kind: 'credited_with_excess' } : { kind: 'credited' };
  if (d.late) return { kind: 'owed_back', reason: owedBackReason(d, terms) };
  if (d.stage === 'detected') return { kind: 'confirming' };
  return { kind: 'awaiting_verdict' };
}

function owedBackReason(d: DepositVerdictFacts, terms: SessionTermsForVerdict): OwedBackReason {
  if (terms.closedAt && d.seenAt >= terms.closedAt) return 'late';
  const { payment } = terms;
  if (!payment) return 'no_method';
  if (d.chain !== payment.chain) return 'other_chain';
  if (d.token !== payment.token) return 'other_token';
  if (toMicroUnits(d.amountBaseUnits, payment.decimals) < terms.minimumDepositMicro) return 'below_minimum';
  // Kept though it matched the pair and was worth enough: the session had closed by the time the workflow saw it.
  return 'late';
}

/** Whether the verdict leaves money owed back to the customer (all of the deposit, or its excess). */
export function owesCustomer(v: DepositVerdict): boolean {
  return v.kind === 'owed_back' || v.kind === 'credited_with_excess';
}

const REASON_WORDS: Record<OwedBackReason, string> = {
  late: 'arrived after the session closed',
  no_method: 'arrived before a payment method was chosen',
  other_chain: 'sent on another chain than the one chosen',
  other_token: 'another token than the one chosen',
  below_minimum: 'below the minimum deposit',
};

/** The verdict in plain words, as the dashboard shows it next to the deposit. */
export function depositVerdictWords(v: DepositVerdict): string {
  switch (v.kind) {
    case 'confirming':
      return 'Confirming: not judged yet';
    case 'reorged':
      return 'Left the chain (reorganised): neither credited nor owed';
    case 'awaiting_verdict':
      return 'Confirmed: not judged yet';
    case 'credited':
      return 'Credited to the payment';
    case 'credited_with_excess':
      return 'Credited to the payment; the excess over the price is owed back to the customer';
    case 'owed_back':
      return `Owed back to the customer: ${REASON_WORDS[v.reason]}`;
  }
}
