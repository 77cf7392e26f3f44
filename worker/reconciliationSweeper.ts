// The scheduled reconciliation: every RECONCILIATION_INTERVAL_MINUTES the worker process compares each mode's
// ledger with its chain (activities/settlement/ledgerReconciliation.ts) and stores the report, which the metrics
// and the admin CLI read. A difference is logged as a warning, agreement as info. Several worker replicas may each
// run one: a report more is harmless, and a mode reconciled less than half an interval ago is skipped. Before
// comparing, it posts the confirmed deposits that no workflow posted: those kept for a refund (the indexer marks a
// deposit late once the session's workflow has ended), as owed to the customer, and credited ones from before credits
// were posted with the verdict, so deposits:<chain> holds every confirmed deposit with its owner. Right after posting
// what is owed back, it opens the refunds no workflow opened for it and starts their workflows
// (activities/refunds/missingDepositRefunds.ts), so the customer can claim the money (docs/refunds.md#sources).
import type { Logger } from 'pino';
import { reconcileLedger, type TreasuryView } from '../activities/settlement/ledgerReconciliation';
import type { Refund } from '../db/repositories/refunds';
import type { Sql } from '../db/client';
import { postRefundOnlyDeposits, postUnpostedCreditedDeposits } from '../db/repositories/depositLedger';
import { lastReconciliationRuns } from '../db/repositories/reconciliation';
import type { Mode } from '../domain/wire/session';
import { errorFields } from '../observability/logger';

export interface ReconciliationSweeper {
  stop(): Promise<void>;
}

export function startReconciliationSweeper(
  sql: Sql,
  views: readonly TreasuryView[],
  intervalMinutes: number,
  logger: Logger,
  /** Opens the mode's missing deposit refunds and starts their workflows (openMissingDepositRefunds with a client). */
  openMissingRefunds: (mode: Mode) => Promise<Refund[]>,
): ReconciliationSweeper | undefined {
  if (intervalMinutes === 0 || views.length === 0) return undefined;
  const intervalMs = intervalMinutes * 60_000;
  // Apart from the comparison: Temporal out of reach must not stop the ledger being reconciled.
  const openRefunds = async (mode: Mode) => {
    try {
      const refunds = await openMissingRefunds(mode);
      if (refunds.length > 0) logger.info({ mode, refunds: refunds.map((r) => r.id) }, 'refunds opened for deposits kept for a refund');
    } catch (error) {
      logger.error({ mode, err: errorFields(error) }, 'opening the missing deposit refunds failed; the next reconciliation retries');
    }
  };
  const reconcile = async (view: TreasuryView) => {
    try {
      const posted = await postRefundOnlyDeposits(sql, view.mode);
      if (posted > 0) logger.info({ mode: view.mode, posted }, 'deposits kept for a refund posted as refund due');
      await openRefunds(view.mode);
      const credited = await postUnpostedCreditedDeposits(sql, view.mode);
      if (credited > 0) logger.info({ mode: view.mode, payments: credited }, 'credited deposits no workflow posted posted as held');
      const run = await reconcileLedger(view, sql);
      const differences = run.differences.map((d) => ({
        account: d.account,
        asset: d.asset,
        ledger: d.ledger.toString(),
        observed: d.observed.toString(),
        difference: d.difference.toString(),
      }));
      if (differences.length > 0)
        logger.warn({ mode: view.mode, run: run.id, differences }, 'ledger and chain differ (checkout-admin ledger reconcile --last)');
      else logger.info({ mode: view.mode, run: run.id }, 'ledger and chain agree');
    } catch (error) {
      logger.error({ mode: view.mode, err: errorFields(error) }, 'reconciliation failed; the next one retries');
    }
  };
  const sweep = async () => {
    let recent = new Set<string>();
    try {
      recent = new Set(
        (await lastReconciliationRuns(sql)).filter((run) => Date.now() - run.ranAt.getTime() < intervalMs / 2).map((run) => run.mode),
      );
    } catch (error) {
      logger.error({ err: errorFields(error) }, 'reading the last reconciliation failed; reconciling every mode');
    }
    for (const view of views.filter((v) => !recent.has(v.mode))) await reconcile(view);
  };
  let running = sweep();
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
