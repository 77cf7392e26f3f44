// Opens the refunds the service owes by itself (docs/refunds.md#sources), in the transaction that records a deposit's
// verdict: one per deposit, ever (refunds_one_per_deposit), so recording the verdict again finds the refund it opened;
// and, for a session whose merchant will never be paid, one more per credited deposit, of what it left pending.
import type { Queryable } from '../../db/client';
import {
  creditedExcesses,
  pendingCreditedDeposits,
  refundedPendingDeposits,
  uncreditedDeposit,
  type OwedDeposit,
} from '../../db/repositories/automaticRefunds';
import { postCreditedDeposits } from '../../db/repositories/depositLedger';
import { postLedger } from '../../db/repositories/ledger';
import { depositRefunds, insertRefund, type Refund } from '../../db/repositories/refunds';
import { pendingDepositRefunded } from '../../domain/ledger/pendingRefundPosting';
import type { Network } from '../../domain/chains/tokenContracts';
import { refundExpiresAt, refundUsdMicros, unmatchedDepositSource } from '../../domain/refunds/automaticRefund';
import { UNPAID_MERCHANT_SOURCES, type AutomaticRefundSource } from '../../domain/refunds/refundSource';
import type { DepositRef } from '../../domain/session/deposit';
import { CLOSED_STATUSES } from '../../domain/wire/status';
import { newRefundId, paymentIdForSession } from '../../domain/wire/ids';

/** How long a customer has to claim a refund the service opened (REFUND_CLAIM_DAYS). */
export interface AutomaticRefundTerms {
  claimDays: number;
  now: Date;
}

async function openRefund(
  tx: Queryable,
  sessionId: string,
  owed: OwedDeposit,
  source: AutomaticRefundSource,
  terms: AutomaticRefundTerms,
): Promise<Refund | undefined> {
  const amountUsdMicros = refundUsdMicros(owed.owedBaseUnits, owed.token, owed.chain);
  // Less than a micro-dollar (18-decimal dust) cannot be paid in Solana USDC: it stays owed in the ledger, for the operator.
  if (amountUsdMicros <= 0n) return undefined;
  const deposit = { chain: owed.chain, txHash: owed.txHash, logIndex: owed.logIndex };
  // Opened again, the refund of this source stands. A deposit whose earlier refund ended another way (kept in another
  // token, then credited to its session, and now overpaying it) gets the next generation, naming the one it follows.
  const earlier = await depositRefunds(tx, deposit, UNPAID_MERCHANT_SOURCES.has(source));
  const same = earlier.find((r) => r.source === source);
  if (same) return same;
  const latest = earlier.at(-1);
  const { refund } = await insertRefund(tx, {
    id: newRefundId(),
    mode: owed.mode,
    merchantId: owed.merchantId,
    sessionId,
    source,
    deposit,
    token: owed.token,
    chain: owed.chain,
    amountBaseUnits: owed.owedBaseUnits,
    amountUsdMicros,
    feePolicy: 'deducted',
    requireSenderProof: false,
    reason: null,
    idempotencyKey: null,
    expiresAt: refundExpiresAt(terms.now, terms.claimDays),
    ...(latest ? { generation: latest.generation + 1, reissueOf: latest.id } : {}),
  });
  return refund;
}

/** The refund of a confirmed deposit kept for a refund, all of it; none while it still confirms. */
export async function openUncreditedDepositRefund(
  tx: Queryable,
  sessionId: string,
  network: Network,
  ref: DepositRef,
  terms: AutomaticRefundTerms,
): Promise<Refund | undefined> {
  const deposit = await uncreditedDeposit(tx, sessionId, network, ref);
  if (!deposit) return undefined;
  const { session } = deposit;
  const closed = CLOSED_STATUSES.has(session.status) || terms.now >= session.expiresAt;
  return openRefund(tx, sessionId, deposit, unmatchedDepositSource(deposit, { closed, payment: session.payment }), terms);
}

/** The overpayment refunds of the session's credited deposits that brought more than its price. */
export async function openOverpaymentRefunds(tx: Queryable, sessionId: string, terms: AutomaticRefundTerms): Promise<Refund[]> {
  const refunds: Refund[] = [];
  for (const owed of await creditedExcesses(tx, sessionId)) {
    const refund = await openRefund(tx, sessionId, owed, 'overpayment', terms);
    if (refund) refunds.push(refund);
  }
  return refunds;
}

/**
 * For a session whose merchant will never be paid (an underpaid session expired with `refund`, a failed settlement an
 * operator gives back), each credited deposit's units still pending for the merchant become owed back to the customer
 * and are refunded, one refund of `source` per deposit. Run again, it posts nothing new and finds the refunds it opened.
 */
export async function openPendingDepositRefunds(
  tx: Queryable,
  sessionId: string,
  source: 'underpaid_expired' | 'settlement_failed',
  terms: AutomaticRefundTerms,
): Promise<Refund[]> {
  await postCreditedDeposits(tx, paymentIdForSession(sessionId));
  for (const deposit of await pendingCreditedDeposits(tx, sessionId)) {
    if (deposit.owedBaseUnits > 0n) await postLedger(tx, pendingDepositRefunded({ ...deposit, pending: deposit.owedBaseUnits }));
  }
  const refunds: Refund[] = [];
  for (const owed of await refundedPendingDeposits(tx, sessionId)) {
    const refund = await openRefund(tx, sessionId, owed, source, terms);
    if (refund) refunds.push(refund);
  }
  return refunds;
}
