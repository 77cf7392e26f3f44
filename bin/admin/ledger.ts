// `ledger reconcile`: compares each mode's ledger with its chains now (activities/settlement/
// ledgerReconciliation.ts) and prints the differences, exiting 3 when there are any; `--last` prints the last
// stored run instead, without touching the chain. Needs SOLANA_TREASURY_ADDRESS_* and RPC_URLS_SOLANA_*, not a key.
// `ledger explain <cs_…|pay_…>`: every posting of one payment and, per asset, where its units are now by the ledger.
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { paymentLedgerEntries, sessionDepositSweeps } from '../../db/repositories/ledgerExplanation';
import { lastReconciliationRuns, type ReconciliationRun } from '../../db/repositories/reconciliation';
import { findSessionById } from '../../db/repositories/sessions';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { assetDecimals, type Asset } from '../../domain/ledger/ledger';
import { groupMeaning, holdingsOf, type ExplainedEntry } from '../../domain/ledger/ledgerExplanation';
import type { ReconciledBalance } from '../../domain/ledger/reconciliation';
import { ID_PREFIX } from '../../domain/wire/ids';
import { z } from '../../domain/wire/validationMessages';
import { treasuryViewsFromConfig } from '../../worker/treasuryViews';
import { CliError, defineCommand, table, type AdminContext, type CommandGroup } from './cli';
import { decimalText } from './settlement';

/** Exit code of a reconciliation that found differences: the command worked, the books do not. */
export const DIFFERENCES_EXIT_CODE = 3;

export const assetText = (asset: Asset, baseUnits: bigint) => decimalText(baseUnits, assetDecimals(asset));
/** An asset a posting names, which may be one this build does not know: shown in base units then. */
const anyAssetText = (asset: string, baseUnits: bigint) =>
  /^(usdc|usdt|native|sol):/.test(asset) ? assetText(asset as Asset, baseUnits) : baseUnits.toString();

/** The treasuries this CLI can read on chain; none configured is an error the operator can fix. */
export function configuredTreasuryViews(context: AdminContext): TreasuryView[] {
  const chains = context.chains();
  const views = treasuryViewsFromConfig(context.config, createChainRegistry(chains), chains.tronHttpApi);
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

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/** Each group the entries name, once, in posting order, with what it records in words (null: a kind this build does not know). */
export const groupsJson = (entries: readonly ExplainedEntry[]) =>
  [...new Set(entries.map((e) => e.groupId))].map((groupId) => ({ group_id: groupId, meaning: groupMeaning(groupId) ?? null }));

export function groupsText(entries: readonly ExplainedEntry[]): string[] {
  const groups = groupsJson(entries);
  if (groups.length === 0) return [];
  return [
    'what each group records:',
    ...table(
      ['GROUP', 'MEANING'],
      groups.map((g) => [g.group_id, g.meaning ?? '-']),
    ).map((l) => `  ${l}`),
  ];
}

export const ledgerEntryJson = (e: ExplainedEntry & { reference: string; createdAt: Date }) => ({
  group_id: e.groupId,
  reference: e.reference,
  account: e.account,
  asset: e.asset,
  amount: e.amount.toString(),
  created_at: e.createdAt.toISOString(),
});

export const ledgerEntriesText = (entries: readonly ExplainedEntry[]) =>
  table(
    ['GROUP', 'ACCOUNT', 'ASSET', 'AMOUNT'],
    entries.map((e) => [e.groupId, e.account, e.asset, anyAssetText(e.asset, e.amount)]),
  ).map((l) => `  ${l}`);

const explain = defineCommand({
  name: 'explain',
  summary: 'every ledger posting of one payment (by its session or payment id) and, per asset, where its units are now',
  positional: { name: 'id', value: '<cs_…|pay_…>', description: 'the session or its payment (required)' },
  options: {},
  readOnly: true,
  schema: z.object({
    id: z.string().regex(new RegExp(`^(cs|pay)_${ULID}$`), 'Must be a session id (cs_…) or a payment id (pay_…)'),
  }),
  async run(context, input) {
    const sql = context.sql();
    // A payment's id is its session's with the payment prefix (domain/wire/ids.ts).
    const ulid = input.id.slice(input.id.indexOf('_') + 1);
    const [sessionId, paymentId] = [`${ID_PREFIX.session}${ulid}`, `${ID_PREFIX.payment}${ulid}`];
    const session = await findSessionById(sql, sessionId);
    if (!session) throw new CliError(`session ${sessionId} does not exist`);
    const [entries, sweeps] = await Promise.all([paymentLedgerEntries(sql, sessionId, paymentId), sessionDepositSweeps(sql, sessionId)]);
    const holdings = holdingsOf(entries);
    const groups = new Set(entries.map((e) => e.groupId)).size;
    return {
      json: {
        session_id: sessionId,
        payment_id: paymentId,
        mode: session.mode,
        postings: entries.map(ledgerEntryJson),
        groups: groupsJson(entries),
        holdings: holdings.map((h) => ({ asset: h.asset, account: h.account, amount: h.amount.toString() })),
        sweeps: sweeps.map((w) => ({
          sweep_id: w.sweepId,
          chain: w.chain,
          token: w.token,
          status: w.status,
          address: w.address,
          planned: w.planned.toString(),
          swept: w.swept?.toString() ?? null,
        })),
      },
      text: [
        `${session.mode} payment ${paymentId} (session ${sessionId}, ${session.status}): ${entries.length} ledger entries in ${groups} group${groups === 1 ? '' : 's'}`,
        ...ledgerEntriesText(entries),
        ...groupsText(entries),
        'where each unit is now (its postings netted per account; debits hold or are owed, credits are where they came from):',
        ...(holdings.length === 0
          ? ['  nothing: no posting names it, or they cancel out']
          : table(
              ['ASSET', 'ACCOUNT', 'AMOUNT'],
              holdings.map((h) => [h.asset, h.account, anyAssetText(h.asset, h.amount)]),
            ).map((l) => `  ${l}`)),
        ...(sweeps.length === 0
          ? []
          : [
              'sweeps of its deposit addresses (their postings cover the whole batch, so they are not netted above):',
              ...table(
                ['SWEEP', 'CHAIN', 'TOKEN', 'STATUS', 'ADDRESS', 'PLANNED', 'SWEPT'],
                sweeps.map((w) => [
                  w.sweepId,
                  w.chain,
                  w.token,
                  w.status,
                  w.address,
                  w.planned.toString(),
                  w.swept === null ? '-' : w.swept.toString(),
                ]),
              ).map((l) => `  ${l}`),
            ]),
      ],
    };
  },
});

export const ledgerCommands: CommandGroup = {
  name: 'ledger',
  summary: "the double-entry ledger: its reconciliation with the chain, and where one payment's units are",
  commands: [reconcile, explain],
};
