// The refunds no workflow opened (docs/refunds.md#sources): a deposit the indexer marks late once its session's
// workflow has ended is never given a verdict, so neither is its refund opened with one; nor were those of deposits
// kept for a refund before refunds existed. This opens each as the verdict would have (automaticRefunds.ts: the same
// source, amount, claim window, and its workflow, which announces it as `payment.unmatched_deposit`). Run by the
// reconciliation sweep and by `checkout-admin refund open-missing`, from any number of processes at once.
import type { Sql } from '../../db/client';
import { depositsWithoutRefund, unclaimedDepositRefunds } from '../../db/repositories/automaticRefunds';
import { postRefundOnlyDeposit } from '../../db/repositories/depositLedger';
import { lockUntilCommit } from '../../db/repositories/locks';
import type { Refund } from '../../db/repositories/refunds';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';
import { openUncreditedDepositRefund } from './automaticRefunds';
import type { RefundStarter } from './startRefundWorkflow';

/** Refunds opened per run at most: a backlog is worked off over several runs, each a short transaction. */
export const MISSING_REFUND_BATCH = 100;

export interface MissingDepositRefundsDeps {
  sql: Sql;
  /** REFUND_CLAIM_DAYS, as the verdict's refunds get. */
  refundClaimDays: number;
  startRefund: RefundStarter;
  now?: () => Date;
}

/**
 * Opens the refunds of `mode`'s deposits kept for a refund that have none, starts their workflows, and answers the
 * refunds it opened. The workflows of those still waiting for a claim are started again too: a run that died (or
 * could not reach Temporal) between committing a refund and starting its workflow leaves one no later run would find
 * otherwise, and a workflow already running is left to it.
 */
export async function openMissingDepositRefunds(deps: MissingDepositRefundsDeps, mode: Mode): Promise<Refund[]> {
  const network = networkForMode(mode);
  const terms = { claimDays: deps.refundClaimDays, now: (deps.now ?? (() => new Date()))() };
  const opened = await deps.sql.begin(async (tx) => {
    // A second process waits here, then finds every deposit the first one opened a refund for: each is reported once.
    await lockUntilCommit(tx, `missing-deposit-refunds:${mode}`);
    const refunds: Refund[] = [];
    for (const deposit of await depositsWithoutRefund(tx, mode, MISSING_REFUND_BATCH)) {
      // As recordDeposit does: the refund is made of what the deposit's posting owes back.
      await postRefundOnlyDeposit(tx, deposit.sessionId, network, deposit);
      const refund = await openUncreditedDepositRefund(tx, deposit.sessionId, network, deposit, terms);
      if (refund) refunds.push(refund);
    }
    return refunds;
  });
  const openedIds = new Set(opened.map((r) => r.id));
  const unclaimed = (await unclaimedDepositRefunds(deps.sql, mode)).filter((r) => !openedIds.has(r.id));
  for (const refund of [...opened, ...unclaimed]) await deps.startRefund(refund);
  return opened;
}
