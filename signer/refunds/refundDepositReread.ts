// An automatic refund's deposit, asked of its chain by the signer itself before the refund's payment is written
// (docs/refunds.md#payment), as a payout's deposits are (signer/backing/depositBacking.ts): every live refund, from a
// provider other than the indexer's, and a test one above SETTLEMENT_RPC_RECHECK_ABOVE_USDC. The indexer's row is
// written by a process that talks to the internet; the chain is not. A node that trails the indexer is waited on
// (retryably, for REREAD_WAIT_MS from the activity's first attempt); one that contradicts it refuses the refund.
import { activityInfo, ApplicationFailure, log } from '@temporalio/activity';
import type { Queryable } from '../../db/client';
import { sessionDepositFacts } from '../../db/repositories/deposits';
import type { Refund } from '../../db/repositories/refunds';
import type { RefundVerdict } from '../../domain/refunds/refundBacking';
import { judgeChainReading, needsChainReread, REREAD_WAIT_MS } from '../../domain/settlement/depositBacking';
import { networkForMode } from '../../domain/session/payablePairs';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { createDepositRereaders, type DepositRereaderDeps } from '../backing/depositRereaders';

export interface RefundRereadDeps extends DepositRereaderDeps {
  sql: Queryable;
  /** SETTLEMENT_RPC_RECHECK_ABOVE_USDC in USDC base units: test refunds above it are re-read (live ones all are). */
  rereadAboveUsdcBaseUnits: bigint;
}

export type RereadRefundDeposit = (refund: Refund) => Promise<RefundVerdict>;

const BACKED: RefundVerdict = { kind: 'backed' };

export function createRefundDepositReread(deps: RefundRereadDeps): RereadRefundDeposit {
  const rereaders = createDepositRereaders(deps);
  return async function rereadRefundDeposit(refund) {
    const { deposit } = refund;
    // A merchant's refund returns money already paid out: its backing is the landed payouts, not a deposit.
    if (!deposit || !needsChainReread(refund.mode, refund.amountUsdMicros, deps.rereadAboveUsdcBaseUnits)) return BACKED;
    const name = `refund ${refund.id}`;
    const network = networkForMode(refund.mode);
    const reader = rereaders.readerFor(deposit.chain, refund.mode);
    if (!reader)
      return {
        kind: 'refused',
        reason: `${name}: its deposit must be re-read from the chain, and the signer cannot read ${deposit.chain} ${network} (${rereaders.missing(deposit.chain, refund.mode)})`,
      };
    const token = deps.registry.token(deposit.chain, network, refund.token);
    const fact = (await sessionDepositFacts(deps.sql, refund.sessionId))
      .map((f) => ({ ...f, amount: BigInt(f.amount) }))
      .find((f) => f.chain === deposit.chain && f.txHash === deposit.txHash && f.logIndex === deposit.logIndex && f.network === network);
    if (!token || !fact)
      return { kind: 'refused', reason: `${name}: the indexer recorded no such ${refund.token} deposit on ${deposit.chain}` };
    // The indexer's destination: the backing judges separately that it is the session's own deposit address.
    const reading = await reader({ txHash: fact.txHash, logIndex: fact.logIndex, owner: fact.toAddress, token: token.address });
    const waitedMs = Date.now() - activityInfo().scheduledTimestampMs;
    const judged = judgeChainReading(fact, reading, deps.registry.get(deposit.chain, network).confirmations, waitedMs);
    if (judged.kind === 'refused') return { kind: 'refused', reason: `${name}: ${judged.reason}` };
    if (judged.kind === 'wait') {
      log.warn('refund waits: the re-read node has not caught up with the indexer', {
        refundId: refund.id,
        chain: deposit.chain,
        reason: judged.reason,
        waitedMs,
        boundMs: REREAD_WAIT_MS,
      });
      throw ApplicationFailure.retryable(`${name}: ${judged.reason}; waiting`, WorkflowFailure.DepositRereadPending);
    }
    return BACKED;
  };
}
