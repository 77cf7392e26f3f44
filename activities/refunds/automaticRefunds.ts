// Opens the refunds the service owes by itself (docs/refunds.md#sources), in the transaction that records a deposit's
// verdict: one per deposit, ever (refunds_one_per_deposit), so recording the verdict again finds the refund it opened.
import type { Queryable } from '../../db/client';
import { creditedExcesses, uncreditedDeposit, type OwedDeposit } from '../../db/repositories/automaticRefunds';
import { insertRefund, type Refund } from '../../db/repositories/refunds';
import type { Network } from '../../domain/chains/tokenContracts';
import { refundExpiresAt, refundUsdMicros, unmatchedDepositSource } from '../../domain/refunds/automaticRefund';
import type { AutomaticRefundSource } from '../../domain/refunds/refundSource';
import type { DepositRef } from '../../domain/session/deposit';
import { CLOSED_STATUSES } from '../../domain/wire/status';
import { newRefundId } from '../../domain/wire/ids';

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
  const { refund } = await insertRefund(tx, {
    id: newRefundId(),
    mode: owed.mode,
    merchantId: owed.merchantId,
    sessionId,
    source,
    deposit: { chain: owed.chain, txHash: owed.txHash, logIndex: owed.logIndex },
    token: owed.token,
    chain: owed.chain,
    amountBaseUnits: owed.owedBaseUnits,
    amountUsdMicros,
    feePolicy: 'deducted',
    requireSenderProof: false,
    reason: null,
    idempotencyKey: null,
    expiresAt: refundExpiresAt(terms.now, terms.claimDays),
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
