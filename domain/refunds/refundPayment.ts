// The contract between the refund workflow (workflows/refund.ts) and the signer, which alone pays a refund
// (docs/refunds.md#payment). Each call is one resumable pass, as a merchant payout's: the workflow calls again until
// the outcome is final.
import type { Mode } from '../wire/session';

export interface RefundPaymentRequest {
  refundId: string;
  mode: Mode;
}

export type RefundPaymentOutcome =
  /** The treasury cannot pay it yet; the operator is told, the workflow waits. */
  | { status: 'awaiting_liquidity'; usdcShortfall: string; lamportsShortfall: string }
  | { status: 'submitted'; signature: string }
  | { status: 'confirmed'; signature: string; confirmedAt: string; amountBaseUnits: string; feeBaseUnits: string }
  /** Landed and failed, or refused before anything was signed: nothing left the service. */
  | { status: 'failed'; reason: string };

/** The refund workflow's id: one per refund, ever. */
export const refundWorkflowId = (refundId: string) => `refund_${refundId}`;

/** Signals the refund workflow takes; the API sends them after it moved the row. */
export const REFUND_SIGNALS = { claimed: 'refundClaimed', cancelled: 'refundCancelled' } as const;
