// The workflow's verdict on a deposit: credited to the payment, or late (kept for a refund). The indexer
// alone writes a deposit's row and chain facts (activities/payments/confirmedDepositFacts.ts reads them);
// the workflow only sets its verdict on the row the indexer attributed to this session. A confirmed deposit is posted
// with the verdict (docs/settlement.md#who-owns-each-unit): credited, the part paying the price pending for the
// merchant and the excess owed back to the customer; kept for a refund, all of it owed back to its sender. What is owed
// back is opened as a refund in the same transaction, and its workflow started once it is committed
// (docs/refunds.md#sources).
import type { Sql } from '../../db/client';
import { postCreditedDeposits, postRefundOnlyDeposit } from '../../db/repositories/depositLedger';
import { setDepositVerdict } from '../../db/repositories/deposits';
import { setPaymentReceived } from '../../db/repositories/payments';
import type { Refund } from '../../db/repositories/refunds';
import type { DepositState } from '../../domain/session/deposit';
import { paymentIdForSession } from '../../domain/wire/ids';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';
import { openOverpaymentRefunds, openUncreditedDepositRefund } from '../refunds/automaticRefunds';
import { startRefundWorkflow, type RefundStarter } from '../refunds/startRefundWorkflow';

export interface RecordDepositDeps {
  sql: Sql;
  /** REFUND_CLAIM_DAYS: how long the customer has to claim a refund opened here. */
  refundClaimDays: number;
  startRefund?: RefundStarter;
  now?: () => Date;
}

export function createRecordDeposit(deps: RecordDepositDeps) {
  const startRefund = deps.startRefund ?? startRefundWorkflow;
  const now = deps.now ?? (() => new Date());
  return async function recordDeposit(sessionId: string, mode: Mode, deposit: DepositState, creditedTotalBaseUnits: string): Promise<void> {
    const network = networkForMode(mode);
    const paymentId = paymentIdForSession(sessionId);
    const terms = { claimDays: deps.refundClaimDays, now: now() };
    const refunds = await deps.sql.begin(async (tx) => {
      const opened: Refund[] = [];
      const credited = deposit.stage === 'confirmed' && !deposit.late;
      await setDepositVerdict(tx, sessionId, network, deposit, { credited, late: deposit.late });
      if (deposit.late) {
        await postRefundOnlyDeposit(tx, sessionId, network, deposit);
        const refund = await openUncreditedDepositRefund(tx, sessionId, network, deposit, terms);
        if (refund) opened.push(refund);
      }
      if (credited) {
        await postCreditedDeposits(tx, paymentId);
        opened.push(...(await openOverpaymentRefunds(tx, sessionId, terms)));
      }
      await setPaymentReceived(tx, paymentId, creditedTotalBaseUnits);
      return opened;
    });
    // Every time, not only when opened now: an attempt that committed and died before starting is started by its retry.
    for (const refund of refunds) await startRefund(refund);
  };
}
