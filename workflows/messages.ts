// Every signal, update and query of the session workflow, with their payload types. The API, the
// indexers, the admin CLI and the tests import these, never the workflow code itself.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Chain, TokenSymbol } from '../domain/chains';
import type { SessionStatus } from '../domain/status';

export const CHECKOUT_SESSION_WORKFLOW = 'checkoutSession';
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDelivery';

export interface StatusTransition {
  status: SessionStatus;
  at: string;
  reason: string;
}

/** A customer's choice of token and chain (select-payment). */
export interface PaymentSelection {
  token: TokenSymbol;
  chain: Chain;
}

/** What the customer needs to pay: returned by select-payment, shown on the hosted page. */
export interface PaymentInstructions {
  payment_id: string;
  quote_id: string;
  token: TokenSymbol;
  chain: Chain;
  deposit_address: string;
  /** Token contract (EVM/Tron) or mint (Solana) the deposit must be made in. */
  token_address: string;
  /** Exact amount expected, as a decimal string with 6 decimals (spec 6.1's token amount format). */
  amount: string;
  /** The same amount in the token's base units on this chain (18 decimals on bsc). */
  amount_base_units: string;
  decimals: number;
  /** EIP-681 (EVM), Solana Pay (solana) or tron: URI, for the QR code and wallet links. */
  payment_uri: string;
  confirmations_required: number;
  expires_at: string;
}

/** A deposit is identified across signals by chain, transaction hash and log (or instruction) index. */
export interface DepositRef {
  chain: Chain;
  txHash: string;
  logIndex: number;
}

export interface DepositObservation extends DepositRef {
  token: TokenSymbol;
  /** Base units of the token on this chain, as an integer string. */
  amount: string;
  toAddress: string;
  fromAddress: string;
  blockNumber: string;
  blockHash: string;
}

export interface DepositConfirmations extends DepositRef {
  confirmations: number;
}

/** Carries the whole observation, so a confirmation still credits the deposit if its detection was lost. */
export interface ConfirmedDeposit extends DepositObservation {
  confirmations: number;
}

export type DepositStage = 'detected' | 'confirmed' | 'reorged';

export interface DepositState extends DepositObservation {
  stage: DepositStage;
  confirmations: number;
  /** Arrived after the session expired or was closed: recorded for refund, never credited. */
  late: boolean;
}

export interface SettlementState {
  reference: string;
  amountUsdc: string;
  settledAt: string;
  provider: string;
}

/** The workflow's own view of its session, for operators and tests. */
export interface SessionState {
  sessionId: string;
  status: SessionStatus;
  /** Incremented by every status change; the read model keeps the highest it has seen. */
  version: number;
  expiresAt: string;
  selection?: PaymentInstructions;
  deposits: DepositState[];
  /** Sum of confirmed, credited deposits in the selected token's base units. */
  receivedBaseUnits: string;
  /** Sum of bank transfers marked received, in USD cents. */
  bankReceivedCents?: string;
  settlement?: SettlementState;
  failureReason?: string;
  transitions: StatusTransition[];
}

export const getStateQuery = defineQuery<SessionState>('getState');

/** Rejected (ApplicationFailure type `SelectionRefused`) once a deposit has been seen or the session is closed. */
export const selectPaymentUpdate = defineUpdate<PaymentInstructions, [PaymentSelection]>('selectPayment');

export const depositDetectedSignal = defineSignal<[DepositObservation]>('depositDetected');
export const confirmationsSignal = defineSignal<[DepositConfirmations]>('confirmations');
export const depositConfirmedSignal = defineSignal<[ConfirmedDeposit]>('depositConfirmed');
export const depositReorgedSignal = defineSignal<[DepositRef]>('depositReorged');

export interface CancelRequest {
  reason: string;
  by: 'merchant' | 'operator';
}
/** Refused (type `CancelRefused`) once a deposit has been seen or the session is final. */
export const cancelUpdate = defineUpdate<SessionState, [CancelRequest]>('cancel');

/** Non-production only: forces a status through the same path (read model, webhooks) as a natural change. */
export const simulateUpdate = defineUpdate<{ session_id: string; status: SessionStatus }, [{ status: SessionStatus }]>('simulate');

export interface BankTransferReceipt {
  amountUsdCents: string;
  reference: string;
  receivedBy: string;
}
export const bankTransferReceivedSignal = defineSignal<[BankTransferReceipt]>('bankTransferReceived');

/** Input of the webhook delivery workflow (workflow id = the delivery's `wh_` id, or a redelivery id). */
export interface WebhookDeliveryInput {
  deliveryId: string;
}
