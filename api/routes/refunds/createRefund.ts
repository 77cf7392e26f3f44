// create refund (docs/refunds.md#api): the merchant returns all or part of what a customer paid on a session. The row is
// committed first, claimed at once when the merchant gave the destination, then the workflow is started outside any
// database transaction. Idempotent per the merchant's Idempotency-Key (required): a retry after a crash anywhere finds
// the row by its key and starts the workflow it may not have got. The customer's claim e-mail goes out last
// (docs/refunds.md#e-mail-to-the-customer): the link in it is signed with the API's secret, so no other process sends it.
import { emailRefundCustomer } from '../../../activities/refunds/refundEmails';
import { requireSessionTokenSecret } from '../../../config/env';
import { lockUntilCommit } from '../../../db/repositories/locks';
import { findMerchantRefund, type RefundListing } from '../../../db/repositories/refundListing';
import {
  findRefundByIdempotencyKey,
  insertRefund,
  isServiceDepositAddress,
  moveRefund,
  refundableFacts,
  type Refund,
} from '../../../db/repositories/refunds';
import { findSession } from '../../../db/repositories/sessions';
import { usdToCents } from '../../../domain/money/money';
import { validateRefundAddress } from '../../../domain/refunds/refundAddress';
import { refundClaimUrl } from '../../../domain/refunds/refundClaimToken';
import { errorFields } from '../../../observability/logger';
import { decideRefundAmount, refundableAmount } from '../../../domain/refunds/refundableAmount';
import { newRefundId } from '../../../domain/wire/ids';
import type { CreateRefundRequest, RefundDestination } from '../../../domain/wire/refund';
import type { AppDeps, MerchantAuth } from '../../context';
import { BadRequestError, ConflictError, sessionNotFound, ValidationFailedError } from '../../errors';
import { IDEMPOTENCY_KEY_HEADER } from '../../middlewares/idempotencyKey';
import { pooledUlid } from '../../pooledUlid';
import { startRefundWorkflow } from './refundWorkflow';

const DAY_MS = 24 * 60 * 60 * 1000;
const MICROS_PER_CENT = 10_000n;

/** Who asks for the refund: a merchant's API key, or a dashboard user acting for the merchant without one. */
export type RefundCaller = Pick<MerchantAuth, 'merchantId' | 'mode'>;

export interface CreatedRefund {
  refund: RefundListing;
  /** True when an earlier request with the same Idempotency-Key had already made it. */
  replayed: boolean;
}

export async function createRefund(
  deps: AppDeps,
  auth: RefundCaller,
  sessionId: string,
  idempotencyKey: string,
  body: CreateRefundRequest,
): Promise<CreatedRefund> {
  // A key of the other mode or session never reaches here as a replay: the Idempotency-Key middleware scopes keys by mode
  // and compares the path, but the refund table holds one key per merchant, so those are told apart here.
  const earlier = await findRefundByIdempotencyKey(deps.sql, auth.merchantId, idempotencyKey);
  if (earlier) return resume(deps, auth, earlier, sessionId, idempotencyKey, body);

  const session = await findSession(deps.sql, auth, sessionId);
  if (!session) throw sessionNotFound();
  const destination = body.destination && (await acceptedDestination(deps, body.destination));

  const now = deps.now?.() ?? new Date();
  const refundId = newRefundId(pooledUlid);
  const refund = await deps.sql.begin(async (tx) => {
    // Two refunds of one session at once must not both fit in what only one of them may take.
    await lockUntilCommit(tx, `refund-session:${sessionId}`);
    const refundable = refundableAmount({ sessionStatus: session.status, ...(await refundableFacts(tx, sessionId)) });
    if (!refundable.ok) throw new ConflictError(refundable.message);
    const requested = body.amount_usd === undefined ? undefined : usdToCents(body.amount_usd) * MICROS_PER_CENT;
    const amount = decideRefundAmount(refundable.refundableUsdMicros, requested);
    if (!amount.ok) {
      throw refundable.refundableUsdMicros > 0n ? new BadRequestError(amount.message) : new ConflictError(amount.message);
    }
    const { refund: inserted } = await insertRefund(tx, {
      id: refundId,
      mode: auth.mode,
      merchantId: auth.merchantId,
      sessionId,
      source: 'merchant',
      deposit: null,
      // The treasury pays every merchant refund in Solana USDC, one unit for one dollar (docs/refunds.md#funding).
      token: 'USDC',
      chain: 'solana',
      amountBaseUnits: amount.amountUsdMicros,
      amountUsdMicros: amount.amountUsdMicros,
      feePolicy: body.fee_policy ?? 'deducted',
      requireSenderProof: body.require_sender_proof ?? false,
      reason: body.reason ?? null,
      idempotencyKey,
      expiresAt: new Date(now.getTime() + deps.config.refundClaimDays * DAY_MS),
      customerEmail: body.customer_email,
    });
    if (inserted.id !== refundId) return inserted;
    if (!destination) return inserted;
    const claimed = await moveRefund(tx, refundId, 'claim', { destination, statusReason: 'destination given by the merchant' });
    if (!claimed.ok) throw new Error(`refund ${refundId} could not be claimed as it was created: ${claimed.message}`);
    return claimed.refund;
  });
  // A concurrent request with the same key won the insert: answer as its replay.
  if (refund.id !== refundId) return resume(deps, auth, refund, sessionId, idempotencyKey, body);
  await startRefundWorkflow(deps, refund);
  await emailClaimLink(deps, refund.id);
  return { refund: await present(deps, auth, refund.id), replayed: false };
}

/** The refund an earlier request with this key made: its workflow started if that request died first. */
async function resume(
  deps: AppDeps,
  auth: RefundCaller,
  earlier: Refund,
  sessionId: string,
  key: string,
  body: CreateRefundRequest,
): Promise<CreatedRefund> {
  // The middleware compares requests only while it keeps the key (24 hours); the refund keeps it for good.
  const same =
    earlier.mode === auth.mode &&
    earlier.sessionId === sessionId &&
    (body.amount_usd === undefined || usdToCents(body.amount_usd) * MICROS_PER_CENT === earlier.amountUsdMicros) &&
    (body.reason ?? null) === earlier.reason &&
    (body.fee_policy ?? 'deducted') === earlier.feePolicy &&
    (body.require_sender_proof ?? false) === earlier.requireSenderProof &&
    (body.customer_email ?? null) === earlier.customerEmail;
  if (!same) {
    throw new ConflictError(`${IDEMPOTENCY_KEY_HEADER} ${key} was already used with a different request; use a new key for a new request`);
  }
  await startRefundWorkflow(deps, earlier);
  await emailClaimLink(deps, earlier.id);
  return { refund: await present(deps, auth, earlier.id), replayed: true };
}

/**
 * The claim e-mail, if the refund has an address and it has not gone out: a replay sends only what its first request
 * did not. The refund exists and the merchant has its claim_url whatever the SMTP server says, so a failure is logged,
 * without the address, and the refund is answered as ever.
 */
async function emailClaimLink(deps: AppDeps, refundId: string): Promise<void> {
  const { mailer } = deps;
  if (!mailer) return;
  const claimUrl = refundClaimUrl(deps.config.publicBaseUrl, refundId, requireSessionTokenSecret(deps.config));
  try {
    await emailRefundCustomer({ sql: deps.sql, mailer }, refundId, { kind: 'claim', claimUrl });
  } catch (error) {
    deps.logger.warn({ err: errorFields(error), refundId }, 'refund claim e-mail not sent');
  }
}

async function present(deps: AppDeps, auth: RefundCaller, refundId: string): Promise<RefundListing> {
  const found = await findMerchantRefund(deps.sql, auth, refundId);
  if (!found) throw new Error(`refund ${refundId} vanished after it was written`);
  return found;
}

/** The merchant's destination, canonically spelled, or a 400 saying why it cannot be paid there. */
async function acceptedDestination(deps: AppDeps, given: RefundDestination): Promise<RefundDestination> {
  const verdict = validateRefundAddress(given);
  if (!verdict.ok) throw new ValidationFailedError([verdict.message]);
  if (await isServiceDepositAddress(deps.sql, verdict.destination.chain, verdict.destination.address)) {
    throw new ValidationFailedError([
      `destination.address ${verdict.destination.address} is a deposit address of this service; give the customer's own wallet`,
    ]);
  }
  return verdict.destination;
}
