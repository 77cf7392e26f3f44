// What the claim page shows of a refund (GET /refunds/{token}/state): read from the database alone, so the page keeps
// working while no worker is up.
import { refundSender, refundTransactionHash } from '../../../db/repositories/refundClaims';
import type { Refund } from '../../../db/repositories/refunds';
import { transactionExplorerUrl } from '../../../domain/chains/blockExplorers';
import { REFUND_ROUTES } from '../../../domain/refunds/refundDestinations';
import { networkForMode } from '../../../domain/session/payablePairs';
import type { RefundClaimState } from '../../../domain/wire/refund';
import type { AppDeps } from '../../context';

/** A refund still waiting past its expiry reads as expired at once, before the workflow's timer moves the row. */
export function isPastClaimExpiry(refund: Refund, now: Date): boolean {
  return refund.status === 'pending_claim' && refund.expiresAt.getTime() <= now.getTime();
}

export async function claimState(deps: Pick<AppDeps, 'sql' | 'now'>, refund: Refund): Promise<RefundClaimState> {
  const [sender, transactionHash] = await Promise.all([refundSender(deps.sql, refund), refundTransactionHash(deps.sql, refund.id)]);
  const payChain = refund.destination?.chain;
  return {
    refund_id: refund.id,
    status: isPastClaimExpiry(refund, deps.now?.() ?? new Date()) ? 'expired' : refund.status,
    amount_usd: Number(refund.amountUsdMicros) / 1e6,
    token: refund.token,
    chain: refund.chain,
    routes: REFUND_ROUTES.map((route) => ({ chain: route.chain, token: route.token })),
    require_sender_proof: refund.requireSenderProof,
    sender: sender ?? null,
    destination: refund.destination,
    expires_at: refund.expiresAt.toISOString(),
    transaction_hash: transactionHash ?? null,
    explorer_url: transactionHash && payChain ? transactionExplorerUrl(payChain, networkForMode(refund.mode), transactionHash) : null,
  };
}
