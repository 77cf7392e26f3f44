// Pays a merchant from the Solana USDC treasury (docs/settlement.md#r6-inventory-on-its-own-clock), once per payment,
// ever. The payout row (amount, wallet, intent) and its ledger reservation are written before anything is signed; the
// chain intent carries the transaction through signing, broadcast and confirmation. Each call is one resumable pass:
// the caller (the settlement workflow) calls again until the outcome is confirmed, waiting while it is submitted or
// awaiting liquidity. Short liquidity is an outcome to wait on, never a failure. What the merchant owes for refunds of
// money already paid out is netted from the payout as its row is written (docs/refunds.md#funding), after the
// operator's fee of the merchant (docs/settlement.md#fees), fixed then too: the transaction moves the rest, and a
// payout they take whole moves nothing and answers `netted`.
import { ApplicationFailure, log } from '@temporalio/activity';
import { isAddress, type Address } from '@solana/kit';
import type { Queryable } from '../../db/client';
import { insertChainIntent } from '../../db/repositories/chainIntents';
import { postDepositsSettled } from '../../db/repositories/depositLedger';
import { postLedger } from '../../db/repositories/ledger';
import { findMerchant } from '../../db/repositories/merchants';
import { lockMerchantReceivable, outstandingReceivable, postedNetting } from '../../db/repositories/merchantReceivable';
import {
  findPayout,
  insertPayout,
  paymentMerchantWallet,
  setPayoutBlockTime,
  setPayoutStatus,
  type Payout,
} from '../../db/repositories/payouts';
import { payoutIntentId } from '../../domain/chainWrites/solanaChainIntent';
import { payoutChainCosts, payoutConfirmed, payoutReleased, payoutReserved } from '../../domain/ledger/ledger';
import { payoutNetted } from '../../domain/ledger/payoutNettingPosting';
import { payoutFeeCharged } from '../../domain/ledger/payoutFeePosting';
import { payoutFee } from '../../domain/settlement/merchantFee';
import { postedFee } from '../../db/repositories/payoutFees';
import { judgeNettedTransfer, nettedFromPayout, nettedSettlementReference } from '../../domain/settlement/payoutNetting';
import type { Mode } from '../../domain/wire/session';
import { judgePayoutWallet } from '../../domain/settlement/payoutBinding';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { createSolanaChainWriter, type SignIntent, type SolanaChainWriterDeps } from '../chainWrites/solanaChainWriter';
import { landedTransaction } from './payoutTransaction';
import {
  advanceTreasuryTransfer,
  awaitingLiquidity,
  followTreasuryTransfer,
  signWhenPayable,
  type TransferPass,
  type TransferWaits,
  type TreasuryTransferDeps,
} from './treasuryTransfer';

export interface TreasuryPayoutDeps extends TreasuryTransferDeps {
  /** Refuses a payout no confirmed deposit backs (depositBacking.ts), before its row exists. */
  verifyDepositBacking: VerifyDepositBacking;
  /** Refuses to sign a row whose amount, merchant or mode the payment's record no longer bears out (depositBacking.ts). */
  verifyAtSigning: VerifyDepositBacking;
  /** Holds a live payout past its merchant's daily limit until approved (dailyLimit.ts), in the transaction that writes it. */
  verifyDailyLimit: VerifyDailyLimit;
}

export interface PayoutRequest {
  paymentId: string;
  merchantId: string;
  mode: Mode;
  /** USDC base units (6 decimals) as a decimal string: activity payloads are JSON. */
  amountUsdcBaseUnits: string;
}

/** Throws a PayoutRefused failure unless the indexer's facts (and, above the threshold, the chain) back the payout. */
export type VerifyDepositBacking = (request: PayoutRequest, amount: bigint) => Promise<void>;

/** Throws a retryable PayoutAwaitingApproval unless the payout is within its merchant's daily limit, or approved. */
export type VerifyDailyLimit = (tx: Queryable, request: PayoutRequest, amount: bigint) => Promise<void>;

export type PayoutOutcome =
  | { status: 'awaiting_liquidity'; usdcShortfall: string; lamportsShortfall: string }
  | { status: 'submitted'; signature: string }
  | { status: 'confirmed'; signature: string; confirmedAt: string; blockTime?: string }
  | { status: 'finalized'; signature: string; confirmedAt: string; finalizedAt: string; blockTime?: string }
  /** The merchant's receivable took the whole payout: no transaction; `reference` names the netting. */
  | { status: 'netted'; reference: string; confirmedAt: string };

const refuse = (message: string) => ApplicationFailure.nonRetryable(message, WorkflowFailure.PayoutRefused);

/** Refuses a request for a payment whose payout says another amount or merchant: one payout per payment, ever. */
function sameRequest(payout: Payout, request: PayoutRequest, amount: bigint, treasury?: string): Payout {
  if (payout.amount !== amount || payout.merchantId !== request.merchantId || (treasury !== undefined && payout.treasury !== treasury)) {
    throw refuse(
      `payment ${request.paymentId} already has a payout of ${payout.amount} to ${payout.merchantId} from ${payout.treasury}; refusing another of ${amount}`,
    );
  }
  return payout;
}

function requestedAmount(request: PayoutRequest): bigint {
  if (!/^\d+$/.test(request.amountUsdcBaseUnits))
    throw refuse(`payout amount must be whole USDC base units, got "${request.amountUsdcBaseUnits}"`);
  return BigInt(request.amountUsdcBaseUnits);
}

/** Writes the payout, its chain intent and its ledger reservation, or returns the payment's existing payout. */
export async function recordPayout(deps: TreasuryPayoutDeps, request: PayoutRequest): Promise<Payout> {
  const amount = requestedAmount(request);
  const existing = await findPayout(deps.sql, request.paymentId);
  const payout = existing ?? (await insertNewPayout(deps, request, amount));
  if (payout.mint !== deps.usdcMint) throw refuse(`payout of ${request.paymentId} is in mint ${payout.mint}, not ${deps.usdcMint}`);
  return sameRequest(payout, request, amount, deps.treasury.address);
}

async function insertNewPayout(deps: TreasuryPayoutDeps, request: PayoutRequest, amount: bigint): Promise<Payout> {
  if (amount <= 0n) throw refuse(`payout amount must be positive, got ${amount}`);
  await deps.verifyDepositBacking(request, amount);
  const merchant = await findMerchant(deps.sql, request.merchantId);
  const wallet = merchant?.settlementWallet;
  if (!merchant || !wallet || !isAddress(wallet)) throw refuse(`merchant ${request.merchantId} has no valid Solana settlement wallet`);
  const fee = payoutFee(amount, merchant.fee);
  return deps.sql.begin(async (tx) => {
    await deps.verifyDailyLimit(tx, request, amount);
    // The lock a refund of the merchant takes to judge it against the receivable (signer/refunds/refundBacking.ts): two
    // payouts of the merchant never net one debt twice, and a refund is judged on the receivable as payouts left it.
    await lockMerchantReceivable(tx, request.merchantId);
    const existing = await findPayout(tx, request.paymentId);
    if (existing) return existing;
    const netted = nettedFromPayout(await outstandingReceivable(tx, request.merchantId, request.mode), amount, fee);
    const intentId = netted + fee === amount ? null : payoutIntentId(request.paymentId);
    if (intentId) await insertChainIntent(tx, intentId);
    const payout = await insertPayout(tx, {
      paymentId: request.paymentId,
      merchantId: request.merchantId,
      mode: request.mode,
      amount,
      netted,
      fee,
      mint: deps.usdcMint,
      treasury: deps.treasury.address,
      merchantWallet: wallet,
      intentId,
    });
    // What the merchant is owed is posted only once the signer has accepted the payout (its deposits back it), in the
    // transaction that reserves it: a refused payout leaves the deposits pending for the merchant, no payable
    // behind (docs/settlement.md#ledger).
    await postDepositsSettled(tx, request.paymentId);
    const charged = payoutFeeCharged(payout);
    if (charged) await postLedger(tx, charged);
    const netting = payoutNetted(payout);
    if (netting) await postLedger(tx, netting);
    if (intentId) await postLedger(tx, payoutReserved(payout));
    return payout;
  });
}

/**
 * The SignIntent of a payout: signs, against a durable nonce of the treasury, only when the treasury can pay and one
 * of its nonce accounts is free; `waits` hears why it did not.
 */
export function payoutSigner(deps: TreasuryPayoutDeps, payout: Payout, waits: TransferWaits = {}): SignIntent {
  return async (_lifetime, tx) => {
    // Each signature, a re-signature after an expired blockhash too, pays the wallet the payment's merchant has now, the
    // amount its credited deposits owe: the row was written by a role that talks to the internet
    // (docs/settlement.md#paid-only-on-the-indexers-facts).
    const owner = await paymentMerchantWallet(tx, payout.paymentId);
    const wallet = judgePayoutWallet(payout, owner ?? { merchantId: '(no session)', settlementWallet: null });
    if (wallet.kind === 'refused') {
      log.error("payout refused at signing: its wallet is not its merchant's settlement wallet", {
        paymentId: payout.paymentId,
        merchantId: payout.merchantId,
        wallet: payout.merchantWallet,
        reason: wallet.reason,
      });
      throw refuse(wallet.reason);
    }
    await deps.verifyAtSigning(
      { paymentId: payout.paymentId, merchantId: payout.merchantId, mode: payout.mode, amountUsdcBaseUnits: payout.amount.toString() },
      payout.amount,
    );
    // The deposits back the gross; the transaction moves the gross less the fee and netting the ledger records, never more.
    const transfer = judgeNettedTransfer({
      paymentId: payout.paymentId,
      amount: payout.amount,
      netted: payout.netted,
      posted: await postedNetting(tx, payout.paymentId, payout.merchantId),
      fee: payout.fee,
      postedFee: await postedFee(tx, payout.paymentId),
    });
    if (transfer.kind === 'refused') {
      log.error('payout refused at signing: its netting or fee is not what the ledger records', {
        paymentId: payout.paymentId,
        reason: transfer.reason,
      });
      throw refuse(transfer.reason);
    }
    return signWhenPayable(
      deps,
      { intentId: transferIntent(payout), wallet: payout.merchantWallet as Address, amount: transfer.amount, reference: payout.paymentId },
      tx,
      waits,
    );
  };
}

/** The chain intent of a payout with a transaction: one netted whole has none, and is never signed. */
function transferIntent(payout: Payout): string {
  if (payout.intentId === null) throw refuse(`payout of ${payout.paymentId} was netted whole: it has no transaction`);
  return payout.intentId;
}

/** A payout the merchant's receivable took whole: complete as written. */
function nettedOutcome(payout: Payout): PayoutOutcome {
  return {
    status: 'netted',
    reference: nettedSettlementReference(payout.paymentId),
    confirmedAt: (payout.confirmedAt as Date).toISOString(),
  };
}

async function recordOutcome(deps: SolanaChainWriterDeps, payout: Payout, pass: TransferPass): Promise<PayoutOutcome> {
  const { intent } = pass.progress;
  const signature = intent.signature ?? '';
  switch (intent.status) {
    case 'prepared': {
      const outcome = awaitingLiquidity(pass, `payout ${payout.paymentId}`);
      await setPayoutStatus(deps.sql, payout.paymentId, 'awaiting_liquidity', null);
      return outcome;
    }
    case 'signed':
    case 'broadcast':
      await setPayoutStatus(deps.sql, payout.paymentId, 'submitted', signature);
      return { status: 'submitted', signature };
    case 'confirmed':
    case 'finalized': {
      const landed = payout.status === 'confirmed' || payout.status === 'finalized' ? undefined : await landedTransaction(deps, signature);
      await deps.sql.begin(async (tx) => {
        await setPayoutStatus(tx, payout.paymentId, intent.status === 'finalized' ? 'finalized' : 'confirmed', signature);
        if (!landed) return;
        if (landed.blockTime) await setPayoutBlockTime(tx, payout.paymentId, landed.blockTime);
        await postLedger(tx, payoutConfirmed(payout));
        const posting = payoutChainCosts(payout, landed);
        if (posting) await postLedger(tx, posting);
      });
      const paid = (await findPayout(deps.sql, payout.paymentId)) as Payout;
      const confirmedAt = (paid.confirmedAt as Date).toISOString();
      const blockTime = paid.blockTime ? { blockTime: paid.blockTime.toISOString() } : {};
      return paid.finalizedAt
        ? { status: 'finalized', signature, confirmedAt, finalizedAt: paid.finalizedAt.toISOString(), ...blockTime }
        : { status: 'confirmed', signature, confirmedAt, ...blockTime };
    }
    case 'failed': {
      const costs = payout.status === 'failed' ? undefined : await landedTransaction(deps, signature);
      await deps.sql.begin(async (tx) => {
        await setPayoutStatus(tx, payout.paymentId, 'failed', signature);
        if (!costs) return;
        await postLedger(tx, payoutReleased(payout));
        const posting = payoutChainCosts(payout, costs);
        if (posting) await postLedger(tx, posting);
      });
      throw ApplicationFailure.nonRetryable(
        `payout transaction ${signature} of ${payout.paymentId} failed on chain: ${JSON.stringify(intent.error)}`,
        WorkflowFailure.PayoutFailed,
      );
    }
  }
}

/**
 * Follows a payout whose treasury's key this signer does not hold (the key was rotated, or is not configured): it
 * re-sends the stored bytes and reads their fate, which needs no key, so a payout under way is finished, never
 * stranded. It never signs: a payout with nothing alive to wait for waits for its own treasury's key, retryably, as
 * one signed by another treasury could pay the merchant twice (docs/settlement.md#payouts).
 */
export async function followPayout(deps: SolanaChainWriterDeps, payout: Payout, why: string): Promise<PayoutOutcome> {
  if (payout.status === 'netted') return nettedOutcome(payout);
  const progress = await followTreasuryTransfer(
    deps,
    transferIntent(payout),
    `payout of ${payout.paymentId} is signed only by its treasury ${payout.treasury}, and ${why}: give the signer that key again to finish it`,
  );
  return recordOutcome(deps, payout, { progress, short: undefined });
}

export function createTreasuryPayout(deps: TreasuryPayoutDeps) {
  const writer = createSolanaChainWriter(deps);
  return async function payTreasuryPayout(request: PayoutRequest): Promise<PayoutOutcome> {
    const existing = await findPayout(deps.sql, request.paymentId);
    if (existing && existing.treasury !== deps.treasury.address) {
      const rotated = sameRequest(existing, request, requestedAmount(request));
      return followPayout(deps, rotated, `the signer now holds treasury ${deps.treasury.address}`);
    }
    const payout = await recordPayout(deps, request);
    if (payout.status === 'netted') return nettedOutcome(payout);
    const pass = await advanceTreasuryTransfer(
      deps,
      writer,
      payout.mode,
      transferIntent(payout),
      (waits) => payoutSigner(deps, payout, waits),
      `payout of ${payout.paymentId}`,
    );
    return recordOutcome(deps, payout, pass);
  };
}
