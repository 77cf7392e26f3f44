// The session workflow's own view of its session (the getState query), and the shapes its signals
// carry that activities and the admin CLI share. The money part is the session ledger's.
import type { DepositState } from './deposit';
import type { PaymentInstructions } from '../wire/payment';
import type { SessionStatus } from '../wire/status';

export interface StatusTransition {
  status: SessionStatus;
  at: string;
  reason: string;
}

/** A bank transfer an operator (or a bank feed) saw arrive for a session. */
export interface BankTransferReceipt {
  amountUsdCents: string;
  reference: string;
  receivedBy: string;
}

/** A receipt as the ledger keeps it: credited to the session, or kept for a refund. */
export interface BankReceipt extends BankTransferReceipt {
  credited: boolean;
}

export interface SettlementState {
  reference: string;
  /** The payout's gross: what the payment's deposits owed the merchant. */
  amountUsdc: string;
  settledAt: string;
  provider: string;
  /** The part of the gross that repaid the merchant's receivable instead of being sent (docs/refunds.md#funding); only when some was. */
  nettedUsdc?: string;
  /** The operator's fee deducted from the gross (docs/settlement.md#fees); only when there was one. */
  feeUsdc?: string;
}

/** The money a session holds: what was chosen, what arrived, what was credited. */
export interface LedgerState {
  selection?: PaymentInstructions;
  /** How many times select-payment succeeded (absent in state carried from before it was counted). */
  selectionsMade?: number;
  deposits: DepositState[];
  /** Sum of confirmed, credited deposits in the selected token's base units. */
  receivedBaseUnits: string;
  /** Every bank receipt once per reference, credited or kept for a refund. */
  bankReceipts: BankReceipt[];
  /** Sum of credited bank receipts, in USD cents. */
  bankReceivedCents: string;
}

/** What a simulate call made up where the session had nothing real (test sessions only). */
export interface SimulationMarks {
  /** The payment method was chosen by the simulation, not by a customer. */
  selection: boolean;
  /** The received amount is the simulation's, not a deposit's. */
  receipt: boolean;
}

/**
 * Owed back to the payer: a deposit or bank transfer that reached the session but cannot be credited, or the credited
 * deposits' units beyond the amount asked for (`excess`, in the selected token on its chain).
 */
export type Refund =
  | { kind: 'deposit'; chain: string; txHash: string; logIndex: number; token: string; amountBaseUnits: string; fromAddress: string }
  | { kind: 'bank'; reference: string; amountUsdCents: string }
  | { kind: 'excess'; chain: string; token: string; amountBaseUnits: string };

export interface SessionState extends LedgerState {
  sessionId: string;
  status: SessionStatus;
  /** Incremented by every status change; the read model keeps the highest it has seen. */
  version: number;
  expiresAt: string;
  settlement?: SettlementState;
  failureReason?: string;
  simulated?: SimulationMarks;
  transitions: StatusTransition[];
}

/** getState's answer: the state and what must be refunded from it. */
export interface SessionSnapshot extends SessionState {
  refunds: Refund[];
}
