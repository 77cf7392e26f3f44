// POST /refunds/{token}/claim: the customer says where their refund goes (docs/refunds.md#claim-flow). Everything is
// checked before anything moves: the route and the address (domain/refunds/refundAddress.ts), that it is
// none of the service's deposit addresses, and when the merchant asked for it, the payer's signature. Then the row is
// claimed under its lock and the refund's workflow told. A repeated claim of the same destination (a double click, a
// retry after a lost answer) answers as the first did and tells the workflow again; another destination is refused.
import { WorkflowNotFoundError } from '@temporalio/client';
import { lockRefund, refundSender } from '../../../db/repositories/refundClaims';
import { findRefund, isServiceDepositAddress, moveRefund, type Refund } from '../../../db/repositories/refunds';
import { refundClaimMessage } from '../../../domain/refunds/claimMessage';
import { validateRefundAddress } from '../../../domain/refunds/refundAddress';
import { REFUND_SIGNALS, refundWorkflowId } from '../../../domain/refunds/refundPayment';
import { verifySenderProof } from '../../../domain/refunds/senderProof';
import type { RefundClaimRequest, RefundClaimState, RefundDestination } from '../../../domain/wire/refund';
import { errorFields, type Logger } from '../../../observability/logger';
import type { AppDeps } from '../../context';
import { ConflictError, GoneError, NotFoundError, ServiceUnavailableError, ValidationFailedError } from '../../errors';
import { claimState, isPastClaimExpiry } from './claimState';

export const refundNotFound = () => new NotFoundError('Refund not found');

const sameDestination = (a: RefundDestination | null, b: RefundDestination) =>
  a !== null && a.chain === b.chain && a.token === b.token && a.address === b.address;

/** Why a refund in this state takes no claim of `destination`; undefined when it does, or already did. */
function refusal(refund: Refund, destination: RefundDestination, now: Date): Error | undefined {
  if (refund.status === 'expired' || isPastClaimExpiry(refund, now))
    return new GoneError('This refund expired before it was claimed; contact the merchant');
  if (refund.status === 'cancelled') return new ConflictError('The merchant cancelled this refund');
  if (refund.status === 'pending_claim') return undefined;
  if (refund.status === 'failed') return new ConflictError('This refund could not be sent; contact the merchant');
  if (sameDestination(refund.destination, destination)) return undefined;
  return new ConflictError('This refund was already claimed for another address');
}

async function proof(deps: Pick<AppDeps, 'sql'>, refund: Refund, destination: RefundDestination, signature: string | undefined) {
  const sender = await refundSender(deps.sql, refund);
  if (!sender) throw new ConflictError('This refund asks for proof from the wallet that paid, and no payment is on record to prove it');
  if (!signature) throw new ValidationFailedError(['sender_proof: A signature by the wallet that paid is required for this refund']);
  const message = refundClaimMessage(refund.id, destination);
  if (!(await verifySenderProof({ chain: sender.chain, sender: sender.address, message, signature })))
    throw new ValidationFailedError([`sender_proof.signature: Not a signature of the claim message by ${sender.address}`]);
  return { chain: sender.chain, address: sender.address, message, signature };
}

export async function claimRefund(
  deps: Pick<AppDeps, 'sql' | 'now' | 'temporal'>,
  log: Logger,
  refundId: string,
  body: RefundClaimRequest,
): Promise<RefundClaimState> {
  const refund = await findRefund(deps.sql, refundId);
  if (!refund) throw refundNotFound();
  const checked = validateRefundAddress(body.destination);
  if (!checked.ok) throw new ValidationFailedError([checked.message]);
  const { destination } = checked;
  const early = refusal(refund, destination, deps.now?.() ?? new Date());
  if (early) throw early;
  if (await isServiceDepositAddress(deps.sql, destination.chain, destination.address))
    throw new ValidationFailedError([
      'destination.address: That is a deposit address of this checkout; give the address of your own wallet',
    ]);
  const senderProof = refund.requireSenderProof ? await proof(deps, refund, destination, body.sender_proof?.signature) : undefined;

  const claimed = await deps.sql.begin(async (tx) => {
    // Checked again under the row's lock: it may have expired, or been claimed or cancelled, since.
    await lockRefund(tx, refund.id);
    const current = await findRefund(tx, refund.id);
    if (!current) throw refundNotFound();
    const late = refusal(current, destination, deps.now?.() ?? new Date());
    if (late) throw late;
    if (current.status !== 'pending_claim') return current;
    const moved = await moveRefund(tx, refund.id, 'claim', { destination, ...(senderProof ? { senderProof } : {}) });
    if (!moved.ok) throw new ConflictError(moved.message);
    return moved.refund;
  });
  await tellWorkflow(deps, log, claimed.id);
  return claimState(deps, claimed);
}

async function tellWorkflow(deps: Pick<AppDeps, 'temporal'>, log: Logger, refundId: string): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(refundWorkflowId(refundId)).signal(REFUND_SIGNALS.claimed);
  } catch (error) {
    // The row is claimed either way: a workflow not (yet) started reads it when it starts.
    if (error instanceof WorkflowNotFoundError) {
      log.warn({ refundId }, 'refund claimed, but its workflow was not found to signal');
      return;
    }
    log.error({ err: errorFields(error), refundId }, 'refund claimed, but its workflow could not be signalled');
    throw new ServiceUnavailableError('Your claim is recorded but could not be passed on yet; send it again in a moment');
  }
}
