// Pays a claimed refund from the Solana USDC treasury (docs/refunds.md#payment), once per refund, ever. Before anything
// is signed the signer judges the refund on its own reading of the facts (refundBacking.ts) and, in one transaction,
// writes its payment (refund_payouts), its chain intent refund:<ref_id> and its ledger reservation; the chain intent
// then carries the transfer through signing, broadcast and confirmation as a payout's does
// (signer/payouts/treasuryTransfer.ts). Each call is one resumable pass: the refund workflow calls again until the
// outcome is confirmed or failed. A refusal writes nothing and answers `failed` with its reason: the money stays where it was.
import { ApplicationFailure, log } from '@temporalio/activity';
import type { Address } from '@solana/kit';
import { insertChainIntent } from '../../db/repositories/chainIntents';
import { postLedger } from '../../db/repositories/ledger';
import { lockUntilCommit } from '../../db/repositories/locks';
import { findRefund, type Refund } from '../../db/repositories/refunds';
import { findRefundPayout, insertRefundPayout, setRefundPayoutStatus, type RefundPayout } from '../../db/repositories/refundPayouts';
import {
  refundChainCosts,
  refundIntentId,
  refundReleased,
  refundReserved,
  refundSent,
  type RefundPaymentAmounts,
} from '../../domain/ledger/refundPostings';
import { judgeRefundRow } from '../../domain/refunds/refundBacking';
import { refundCharge } from '../../domain/refunds/refundFee';
import type { RefundPaymentOutcome, RefundPaymentRequest } from '../../domain/refunds/refundPayment';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { createSolanaChainWriter, type SignIntent } from '../chainWrites/solanaChainWriter';
import { landedTransaction } from '../payouts/payoutTransaction';
import {
  advanceTreasuryTransfer,
  awaitingLiquidity,
  followTreasuryTransfer,
  signWhenPayable,
  type TransferPass,
  type TransferWaits,
  type TreasuryTransferDeps,
} from '../payouts/treasuryTransfer';
import { judgeDestination, judgeRefundBacking, type RefundBackingDeps } from './refundBacking';
import { createRefundDepositReread, type RefundRereadDeps } from './refundDepositReread';

/** The treasury is the same that pays the mode's merchants; deposits are re-read from their chains as its payouts' are. */
export interface RefundPayerDeps extends RefundBackingDeps, TreasuryTransferDeps, Omit<RefundRereadDeps, 'sql' | 'registry'> {
  /** REFUND_NETWORK_FEE_USD in USD micro-units. */
  networkFeeUsdMicros: bigint;
}

type Written = { kind: 'written'; payout: RefundPayout } | { kind: 'refused'; reason: string };

/** The postings' amounts: the refund's own (which no role but the schema owner changes) and the signer's copy of what it pays. */
export const refundAmounts = (refund: Refund, payout: RefundPayout): RefundPaymentAmounts => ({
  refundId: refund.id,
  mode: refund.mode,
  merchantId: refund.merchantId,
  source: refund.source,
  token: refund.token,
  chain: refund.chain,
  amountBaseUnits: refund.amountBaseUnits,
  amountUsdMicros: refund.amountUsdMicros,
  paid: payout.amountBaseUnits,
  fee: payout.fee,
  merchantFee: refund.feePolicy === 'merchant' ? payout.fee : 0n,
});

/** Writes the refund's payment, its chain intent and its reservation, or says why it must not be paid. */
export async function recordRefundPayment(deps: RefundPayerDeps, request: RefundPaymentRequest): Promise<Written> {
  const read = await findRefund(deps.sql, request.refundId);
  const row = judgeRefundRow(read, request);
  if (row.kind === 'refused' || !read) return { kind: 'refused', reason: row.kind === 'refused' ? row.reason : '' };
  const charge = refundCharge(read.amountUsdMicros, read.feePolicy, deps.networkFeeUsdMicros);
  if (charge.kind === 'refused') return { kind: 'refused', reason: `refund ${read.id}: ${charge.reason}` };
  const destination = await judgeDestination(deps, read, deps.treasury.address);
  if (destination.kind === 'refused') return destination;
  // Before the transaction, as it may wait on a node: the indexer's deposit row against the chain's own record.
  const onChain = await createRefundDepositReread(deps)(read);
  if (onChain.kind === 'refused') return onChain;
  const outcome = await deps.sql
    .begin(async (tx): Promise<Written> => {
      // One writer per refund: a second pass finds the first's row.
      await lockUntilCommit(tx, refundIntentId(read.id));
      const existing = await findRefundPayout(tx, read.id);
      if (existing) return { kind: 'written', payout: existing };
      const refund = await findRefund(tx, read.id);
      const again = judgeRefundRow(refund, request);
      if (again.kind === 'refused' || !refund) return { kind: 'refused', reason: again.kind === 'refused' ? again.reason : '' };
      if (refund.destination?.address !== read.destination?.address)
        return { kind: 'refused', reason: `refund ${refund.id}: its destination changed while it was checked` };
      const backing = await judgeRefundBacking(deps, tx, refund, charge.merchantFee);
      if (backing.kind === 'refused') return backing;
      const intentId = refundIntentId(refund.id);
      await insertChainIntent(tx, intentId);
      const payout = await insertRefundPayout(tx, {
        refundId: refund.id,
        mode: refund.mode,
        chain: 'solana',
        token: 'USDC',
        destinationAddress: refund.destination?.address as string,
        amountBaseUnits: charge.paid,
        fee: charge.fee,
        intentId,
        treasury: deps.treasury.address,
      });
      await postLedger(tx, refundReserved(refundAmounts(refund, payout)));
      // The row's insert waited for any cancel holding the refund's row (its foreign key's lock): read the status again
      // now, and withdraw everything if the refund was cancelled meanwhile.
      const after = await findRefund(tx, refund.id);
      if (after?.status !== 'claimed')
        throw new RefundMovedAway(`refund ${refund.id} became ${after?.status ?? 'missing'} while its payment was written`);
      return { kind: 'written', payout };
    })
    .catch((error: unknown) => {
      if (error instanceof RefundMovedAway) return { kind: 'refused', reason: error.message } as const;
      throw error;
    });
  return outcome;
}

/** Rolls back a payment written for a refund that stopped being claimed before it committed. */
class RefundMovedAway extends Error {}

/** Signs the refund's transfer against a free durable nonce of the treasury, when the treasury can pay it now. */
export function refundSigner(deps: RefundPayerDeps, payout: RefundPayout, waits: TransferWaits = {}): SignIntent {
  return (_lifetime, tx) =>
    signWhenPayable(
      deps,
      {
        intentId: payout.intentId,
        wallet: payout.destinationAddress as Address,
        amount: payout.amountBaseUnits,
        reference: payout.refundId,
      },
      tx,
      waits,
    );
}

async function recordOutcome(deps: RefundPayerDeps, payout: RefundPayout, pass: TransferPass): Promise<RefundPaymentOutcome> {
  const { intent } = pass.progress;
  const signature = intent.signature ?? '';
  switch (intent.status) {
    case 'prepared':
      return awaitingLiquidity(pass, `refund ${payout.refundId}`);
    case 'signed':
    case 'broadcast':
      await setRefundPayoutStatus(deps.sql, payout.refundId, 'submitted', { signature });
      return { status: 'submitted', signature };
    case 'confirmed':
    case 'finalized': {
      if (payout.status !== 'confirmed') {
        const landed = await landedTransaction(deps, signature);
        const refund = (await findRefund(deps.sql, payout.refundId)) as Refund;
        await deps.sql.begin(async (tx) => {
          await setRefundPayoutStatus(tx, payout.refundId, 'confirmed', { signature });
          await postLedger(tx, refundSent(refundAmounts(refund, payout)));
          const costs = refundChainCosts(refundAmounts(refund, payout), landed);
          if (costs) await postLedger(tx, costs);
        });
      }
      const paid = (await findRefundPayout(deps.sql, payout.refundId)) as RefundPayout;
      return {
        status: 'confirmed',
        signature,
        confirmedAt: paid.updatedAt.toISOString(),
        amountBaseUnits: paid.amountBaseUnits.toString(),
        feeBaseUnits: paid.fee.toString(),
      };
    }
    case 'failed': {
      const reason = `refund transaction ${signature} failed on chain: ${JSON.stringify(intent.error)}`;
      if (payout.status !== 'failed') {
        const costs = await landedTransaction(deps, signature);
        const refund = (await findRefund(deps.sql, payout.refundId)) as Refund;
        await deps.sql.begin(async (tx) => {
          await setRefundPayoutStatus(tx, payout.refundId, 'failed', { signature, failureReason: reason });
          await postLedger(tx, refundReleased(refundAmounts(refund, payout)));
          const posting = refundChainCosts(refundAmounts(refund, payout), costs);
          if (posting) await postLedger(tx, posting);
        });
      }
      log.error('refund transaction landed and failed: nothing was paid, the reservation is released', {
        refundId: payout.refundId,
        signature,
      });
      return { status: 'failed', reason };
    }
  }
}

/**
 * Follows a refund written for a treasury whose key this signer does not hold: re-sends its stored bytes and reads their
 * fate, never signs, as one signed by another treasury could pay the customer twice.
 */
export async function followRefund(deps: RefundPayerDeps, payout: RefundPayout, why: string): Promise<RefundPaymentOutcome> {
  const progress = await followTreasuryTransfer(
    deps,
    payout.intentId,
    `refund ${payout.refundId} is signed only by its treasury ${payout.treasury}, and ${why}: give the signer that key again to finish it`,
  );
  return recordOutcome(deps, payout, { progress, short: undefined });
}

export function createRefundPayer(deps: RefundPayerDeps) {
  const writer = createSolanaChainWriter(deps);
  return async function payRefund(request: RefundPaymentRequest): Promise<RefundPaymentOutcome> {
    const existing = await findRefundPayout(deps.sql, request.refundId);
    const written = existing ? ({ kind: 'written', payout: existing } as const) : await recordRefundPayment(deps, request);
    if (written.kind === 'refused') {
      log.warn('refund refused: nothing written, nothing sent', { refundId: request.refundId, mode: request.mode, reason: written.reason });
      return { status: 'failed', reason: written.reason };
    }
    const { payout } = written;
    if (payout.mode !== request.mode)
      throw ApplicationFailure.nonRetryable(
        `refund ${payout.refundId} is paid by the ${payout.mode} treasury`,
        WorkflowFailure.SignerModeRefused,
      );
    if (payout.treasury !== deps.treasury.address)
      return followRefund(deps, payout, `the signer now holds treasury ${deps.treasury.address}`);
    const pass = await advanceTreasuryTransfer(
      deps,
      writer,
      payout.mode,
      payout.intentId,
      (waits) => refundSigner(deps, payout, waits),
      `refund ${payout.refundId}`,
    );
    return recordOutcome(deps, payout, pass);
  };
}
