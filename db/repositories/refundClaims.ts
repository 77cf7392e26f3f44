// What the customer's claim of a refund reads besides the refund itself (api/routes/refundClaims/): who paid, whether
// an address is one of the service's own deposit addresses, and the transaction that paid the refund back.
import type { Chain } from '../../domain/chains/chains';
import type { Queryable } from '../client';
import type { Refund } from './refunds';

export interface RefundSender {
  chain: Chain;
  address: string;
}

/**
 * The address that paid: the refunded deposit's sender, or for a merchant's refund (of no one deposit) the sender of
 * the session's first credited deposit.
 */
export async function refundSender(sql: Queryable, refund: Refund): Promise<RefundSender | undefined> {
  const [row] = refund.deposit
    ? await sql<{ chain: Chain; from_address: string }[]>`
        select chain, from_address from deposits
        where chain = ${refund.deposit.chain} and tx_hash = ${refund.deposit.txHash} and log_index = ${refund.deposit.logIndex}`
    : await sql<{ chain: Chain; from_address: string }[]>`
        select chain, from_address from deposits where session_id = ${refund.sessionId} and credited
        order by created_at, tx_hash, log_index limit 1`;
  return row && { chain: row.chain, address: row.from_address };
}

/** The signature of the refund's payment once the signer sent it. */
export async function refundTransactionHash(sql: Queryable, refundId: string): Promise<string | undefined> {
  const [row] = await sql<{ signature: string | null }[]>`select signature from refund_payouts where refund_id = ${refundId}`;
  return row?.signature ?? undefined;
}

/** Holds the refund's row lock to the end of the caller's transaction, so what it reads next cannot change under it. */
export async function lockRefund(tx: Queryable, refundId: string): Promise<void> {
  await tx`select id from refunds where id = ${refundId} for update`;
}
