// A refund as the dashboard shows it (its Refunds page, a session's detail): what is owed, where it stands, where it
// goes, and the transaction that paid it with its block explorer link.
import type { RefundListing } from '../../db/repositories/refundListing';
import { transactionExplorerUrl } from '../../domain/chains/blockExplorers';
import { toSixDecimalString } from '../../domain/money/pricing';
import { networkForMode } from '../../domain/session/payablePairs';

export const dashboardRefundJson = (r: RefundListing) => {
  const signature = r.payout?.signature ?? null;
  return {
    refund_id: r.id,
    session_id: r.sessionId,
    status: r.status,
    status_reason: r.statusReason,
    source: r.source,
    /** What the customer is owed, in USD to the micro-unit, before the network fee. */
    amount_usd: toSixDecimalString(r.amountUsdMicros, 6),
    token: r.token,
    chain: r.chain,
    deposit: r.deposit && { chain: r.deposit.chain, tx_hash: r.deposit.txHash, log_index: r.deposit.logIndex },
    destination: r.destination,
    reason: r.reason,
    /** The merchant's own: the address it gave for the customer's e-mails (docs/refunds.md#e-mail-to-the-customer). */
    customer_email: r.customerEmail,
    // Every refund is paid in USDC from the Solana treasury (docs/refunds.md#payment).
    transaction_hash: signature,
    explorer_url: signature && transactionExplorerUrl('solana', networkForMode(r.mode), signature),
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    completed_at: r.completedAt?.toISOString() ?? null,
  };
};
