// Every signal, update and query of the session workflow. The API, the indexers, the admin CLI and the
// tests import these, never the workflow code itself; the shapes they carry live in domain/.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ConfirmedDeposit, DepositConfirmations, DepositObservation, DepositRef } from '../domain/session/deposit';
import type { PaymentInstructions, PaymentSelection } from '../domain/wire/payment';
import type { BankTransferReceipt, SessionState, SessionSnapshot } from '../domain/session/sessionState';
import type { SessionStatus } from '../domain/wire/status';

export const CHECKOUT_SESSION_WORKFLOW = 'checkoutSession';
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDelivery';

export const getStateQuery = defineQuery<SessionSnapshot>('getState');

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
/** Refused (type `CancelRefused`) once anything has arrived or the session is closed. */
export const cancelUpdate = defineUpdate<SessionState, [CancelRequest]>('cancel');

export interface CreditDepositRequest extends DepositRef {
  /** Who credits it (the dashboard user), for the timeline and the refund's status reason. */
  by: string;
}
/**
 * The merchant credits an unmatched deposit (another token or chain) to the session, switching its payment to the
 * deposit's pair and cancelling the deposit's refund (docs/refunds.md#crediting-an-unmatched-deposit). Refused (type
 * `DepositCreditRefused`) when domain/refunds/depositCredit.ts says it cannot be, or its refund was claimed meanwhile.
 * Answers once the credit is written; the status it calls for follows in the workflow's main loop.
 */
export const creditDepositUpdate = defineUpdate<{ session_id: string; status: SessionStatus }, [CreditDepositRequest]>('creditDeposit');

/** Non-production only: forces a status through the same path (read model, webhooks) as a natural change. */
export const simulateUpdate = defineUpdate<{ session_id: string; status: SessionStatus }, [{ status: SessionStatus }]>('simulate');

/** Idempotent per bank reference: marking the same transfer twice credits it once. */
export const bankTransferReceivedSignal = defineSignal<[BankTransferReceipt]>('bankTransferReceived');

/** Input of the webhook delivery workflow (workflow id = the delivery's `wh_` id, or a redelivery id). */
export interface WebhookDeliveryInput {
  deliveryId: string;
}
