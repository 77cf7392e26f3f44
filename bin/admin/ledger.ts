// `ledger reconcile`: compares each mode's ledger with its Solana network now (activities/settlement/
// ledgerReconciliation.ts) and prints the differences, exiting 3 when there are any; `--last` prints the last
// stored run instead, without touching the chain. Needs SOLANA_TREASURY_ADDRESS_* and RPC_URLS_SOLANA_*, not a key.
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { loadChainsConfig } from '../../config/chains';
import { lastReconciliationRuns, type ReconciliationRun } from '../../db/repositories/reconciliation';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { assetDecimals, type Asset } from '../../domain/ledger/ledger';
import type { ReconciledBalance } from '../../domain/ledger/reconciliation';
import { z } from '../../domain/wire/validationMessages';
import { treasuryViewsFromConfig } from '../../worker/treasuryViews';
import { CliError, defineCommand, table, type AdminContext, type CommandGroup } from './cli';
import { decimalText } from './settlement';

/** Exit code of a reconciliation that found differences: the command worked, the books do not. */
export const DIFFERENCES_EXIT_CODE = 3;

export const assetText = (asset: Asset, baseUnits: bigint) => decimalText(baseUnits, assetDecimals(asset));

/** The treasuries this CLI can read on chain; none configured is an error the operator can fix. */
export function configuredTreasuryViews(context: AdminContext): TreasuryView[] {
  const views = treasuryViewsFromConfig(context.config, createChainRegistry(loadChainsConfig()));
  if (views.length === 0) {
    throw new CliError(
      "no treasury to read: set SOLANA_TREASURY_ADDRESS_TEST or SOLANA_TREASURY_ADDRESS_LIVE (npm run signer -- --print-xpubs prints them) and the network's RPC_URLS_SOLANA_*",
    );
  }
  return views;
}

const balanceJson = (b: ReconciledBalance & { difference?: bigint }) => ({
  account: b.account,
  asset: b.asset,
  ledger: b.ledger.toString(),
  observed: b.observed.toString(),
  ...(b.difference === undefined ? {} : { difference: b.difference.toString() }),
});

export const runJson = (run: ReconciliationRun) => ({
  mode: run.mode,
  run_id: run.id,
  ran_at: run.ranAt.toISOString(),
  balances: run.balances.map(balanceJson),
  differences: run.differences.map(balanceJson),
});

function runText(run: ReconciliationRun): string[] {
  const rows = run.balances.map((b) => {
    const difference = run.differences.find((d) => d.account === b.account && d.asset === b.asset)?.difference;
    return [
      b.account,
      b.asset,
      assetText(b.asset, b.ledger),
      assetText(b.asset, b.observed),
      difference === undefined ? '-' : assetText(b.asset, difference),
    ];
  });
  const verdict =
    run.differences.length === 0 ? 'no differences' : `${run.differences.length} difference${run.differences.length === 1 ? '' : 's'}`;
  return [
    `${run.mode}: reconciled at ${run.ranAt.toISOString()} (run ${run.id}): ${verdict}`,
    ...table(['ACCOUNT', 'ASSET', 'LEDGER', 'ON CHAIN', 'DIFFERENCE'], rows).map((l) => `  ${l}`),
  ];
}

const reconcile = defineCommand({
  name: 'reconcile',
  summary: 'compare the ledger with the chain per mode now (or show the last run) and print the differences; exit 3 when there are any',
  options: { last: { description: 'print the last stored run of each mode instead of reading the chain' } },
  // It stores a report of what it read and moves no money.
  readOnly: true,
  schema: z.object({ last: z.boolean().optional() }),
  async run(context, input) {
    let runs: ReconciliationRun[];
    if (input.last) {
      runs = await lastReconciliationRuns(context.sql());
      if (runs.length === 0) throw new CliError('no reconciliation has run yet: run checkout-admin ledger reconcile');
    } else {
      runs = [];
      for (const view of configuredTreasuryViews(context)) runs.push(await reconcileLedger(view, context.sql()));
    }
    return {
      json: { runs: runs.map(runJson) },
      text: runs.flatMap(runText),
      ...(runs.some((r) => r.differences.length > 0) ? { exitCode: DIFFERENCES_EXIT_CODE } : {}),
    };
  },
});

export const ledgerCommands: CommandGroup = {
  name: 'ledger',
  summary: 'the double-entry ledger and its reconciliation with the chain',
  commands: [reconcile],
};
