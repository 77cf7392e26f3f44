// The merchant's credit of an unmatched deposit to its still open session (docs/refunds.md#crediting-an-unmatched-deposit),
// the database side of the workflow's creditDeposit update. The workflow first reads the deposit and its automatic
// refund (unmatchedDepositFacts) and judges them (domain/refunds/depositCredit.ts); once it switched the session's
// payment to the deposit's pair, creditUnmatchedDeposit writes the credit in one transaction, under the refund's row
// lock: the refund cancelled, the deposit marked credited, its ledger moved from owed back to pending for the merchant.
// A refund claimed meanwhile refuses it and nothing is written. The refund's workflow is told once it is committed. A
// deposit that brings more than the price is refunded its excess as any credited deposit is (overpayment), under the
// next generation of its refunds.
import { Context, log } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Sql } from '../../db/client';
import { postCreditedUnmatchedDeposit } from '../../db/repositories/depositLedger';
import { findConfirmedDeposit, setDepositVerdict } from '../../db/repositories/deposits';
import { setPaymentReceived } from '../../db/repositories/payments';
import { moveRefund, type Refund, type RefundRow } from '../../db/repositories/refunds';
import { openOverpaymentRefunds } from '../refunds/automaticRefunds';
import { startRefundWorkflow, type RefundStarter } from '../refunds/startRefundWorkflow';
import { REFUND_SIGNALS, refundWorkflowId } from '../../domain/refunds/refundPayment';
import type { RefundSource } from '../../domain/refunds/refundSource';
import type { RefundStatus } from '../../domain/refunds/refundStatus';
import type { ConfirmedDeposit, DepositRef } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import type { PaymentNetwork } from './paymentNetwork';

export interface UnmatchedDepositFacts {
  deposit: ConfirmedDeposit;
  decimals: number;
  refund: { id: string; source: RefundSource; status: RefundStatus } | null;
}

export interface DepositCreditRequest {
  sessionId: string;
  mode: Mode;
  deposit: DepositRef;
  /** The session's credited total once this deposit counts, in the pair's base units. */
  creditedTotalBaseUnits: string;
  /** Who credited it, for the refund's status reason. */
  by: string;
}

export type DepositCreditOutcome = { credited: true; refundId: string } | { credited: false; refusal: string };

type CreditWritten = { credited: true; refundId: string; opened: Refund[] } | { credited: false; refusal: string };

export interface UnmatchedDepositCreditDeps {
  sql: Sql;
  network: PaymentNetwork;
  /** Wakes the cancelled refund's workflow; through the worker's Temporal client unless given. */
  tellRefund?: (refundId: string) => Promise<void>;
  /** REFUND_CLAIM_DAYS, for the overpayment refund a credited deposit may open. */
  refundClaimDays: number;
  startRefund?: RefundStarter;
  now?: () => Date;
}

export function createUnmatchedDepositCredit(deps: UnmatchedDepositCreditDeps) {
  const tellRefund = deps.tellRefund ?? tellRefundWorkflow;
  const startRefund = deps.startRefund ?? startRefundWorkflow;
  const now = deps.now ?? (() => new Date());
  return {
    /** The confirmed deposit as the indexer recorded it for the session, and the automatic refund opened for it. */
    async unmatchedDepositFacts(sessionId: string, mode: Mode, ref: DepositRef): Promise<UnmatchedDepositFacts | null> {
      const network = networkForMode(mode);
      const facts = await findConfirmedDeposit(deps.sql, sessionId, network, ref);
      if (!facts) return null;
      const decimals = deps.network.tokenContract(facts.token, ref.chain, network)?.decimals;
      if (decimals === undefined) return null;
      const [refund] = await deps.sql<Array<Pick<RefundRow, 'id' | 'source' | 'status'>>>`
        select id, source, status from refunds
        where deposit_chain = ${ref.chain} and deposit_tx_hash = ${ref.txHash} and deposit_log_index = ${ref.logIndex}
          and session_id = ${sessionId} and source not in ('merchant', 'underpaid_expired', 'settlement_failed')`;
      return {
        deposit: { ...ref, ...facts },
        decimals,
        refund: refund ? { id: refund.id, source: refund.source, status: refund.status } : null,
      };
    },

    async creditUnmatchedDeposit(request: DepositCreditRequest): Promise<DepositCreditOutcome> {
      const { sessionId, deposit } = request;
      const network = networkForMode(request.mode);
      const paymentId = paymentIdForSession(sessionId);
      const written = await deps.sql.begin(async (tx): Promise<CreditWritten> => {
        const [refund] = await tx<Array<{ id: string; status: RefundStatus }>>`
          select id, status from refunds
          where deposit_chain = ${deposit.chain} and deposit_tx_hash = ${deposit.txHash} and deposit_log_index = ${deposit.logIndex}
            and session_id = ${sessionId} and source in ('wrong_token', 'wrong_chain')
          for update`;
        if (!refund) return { credited: false, refusal: 'The deposit has no refund in another token or chain to cancel' };
        const [row] = await tx<Array<{ credited: boolean }>>`
          select credited from deposits where chain = ${deposit.chain} and tx_hash = ${deposit.txHash}
            and log_index = ${deposit.logIndex} and network = ${network} and session_id = ${sessionId}`;
        // A retried attempt whose transaction committed finds its own work done.
        if (refund.status === 'cancelled' && row?.credited) return { credited: true, refundId: refund.id, opened: [] };
        if (refund.status !== 'pending_claim')
          return { credited: false, refusal: `Its refund is ${refund.status}, no longer waiting for a claim` };
        const moved = await moveRefund(tx, refund.id, 'cancel', { statusReason: `credited to the session by ${request.by}` });
        if (!moved.ok) throw new Error(`refund ${refund.id} could not be cancelled under its lock: ${moved.message}`);
        await setDepositVerdict(tx, sessionId, network, deposit, { credited: true, late: false });
        await postCreditedUnmatchedDeposit(tx, paymentId, deposit);
        await setPaymentReceived(tx, paymentId, request.creditedTotalBaseUnits);
        const opened = await openOverpaymentRefunds(tx, sessionId, { claimDays: deps.refundClaimDays, now: now() });
        return { credited: true, refundId: refund.id, opened };
      });
      if (!written.credited) return written;
      await tellRefund(written.refundId);
      for (const opened of written.opened) await startRefund(opened);
      return { credited: true, refundId: written.refundId };
    },
  };
}

/** As `checkout-admin refund cancel` does: the workflow reads the row again, and announces refund.cancelled. */
async function tellRefundWorkflow(refundId: string): Promise<void> {
  try {
    await Context.current().client.workflow.getHandle(refundWorkflowId(refundId)).signal(REFUND_SIGNALS.cancelled);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    log.warn('refund credited to its session has no running workflow: the row is cancelled, nothing else was told', { refundId });
  }
}
