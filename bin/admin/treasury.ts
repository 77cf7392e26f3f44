// `treasury status`: per mode, the USDC that unconfirmed payouts hold back and the payouts waiting, from Postgres,
// beside what the last reconciliation read on chain (the CLI reads no chain for it: `ledger reconcile` does).
// `treasury record-funding`: records an operator's top-up or withdrawal, read from the chain, in the ledger.
import { FundingRefused, recordTreasuryFunding } from '../../activities/settlement/treasuryFunding';
import { treasuryStatus } from '../../db/repositories/payoutListing';
import { lastReconciliationRuns } from '../../db/repositories/reconciliation';
import { ACCOUNT } from '../../domain/ledger/ledger';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, ModeOption, table, type CommandGroup } from './cli';
import { assetText, configuredTreasuryViews } from './ledger';
import { ageText, usdcText } from './settlement';

const status = defineCommand({
  name: 'status',
  summary:
    'per mode: the on-chain balance at the last reconciliation, USDC reserved by unconfirmed payouts, payouts waiting by status and the oldest',
  options: {},
  readOnly: true,
  schema: z.object({}),
  async run(context) {
    const [modes, runs] = await Promise.all([treasuryStatus(context.sql()), lastReconciliationRuns(context.sql())]);
    const onChain = (mode: string) => {
      const run = runs.find((r) => r.mode === mode);
      return run && { run, balances: run.balances.filter((b) => b.account === ACCOUNT.treasury) };
    };
    return {
      json: {
        modes: modes.map((m) => {
          const chain = onChain(m.mode);
          return {
            mode: m.mode,
            treasuries: m.treasuries,
            on_chain: chain
              ? {
                  reconciled_at: chain.run.ranAt.toISOString(),
                  differences: chain.run.differences.length,
                  balances: chain.balances.map((b) => ({
                    asset: b.asset,
                    amount: assetText(b.asset, b.observed),
                    base_units: b.observed.toString(),
                  })),
                }
              : null,
            reserved_usdc: usdcText(m.reserved),
            reserved_base_units: m.reserved.toString(),
            waiting: m.waiting.map((w) => ({
              status: w.status,
              count: w.count,
              amount_usdc: usdcText(w.amount),
              oldest_age_seconds: w.oldestAgeSeconds,
            })),
          };
        }),
      },
      text: modes.flatMap((m) => {
        const chain = onChain(m.mode);
        return [
          `${m.mode}: treasury ${m.treasuries.length === 0 ? '- (no payouts yet)' : m.treasuries.join(', ')}; ${usdcText(m.reserved)} USDC reserved by unconfirmed payouts`,
          chain
            ? `  on chain at ${chain.run.ranAt.toISOString()}: ${chain.balances.map((b) => `${assetText(b.asset, b.observed)} ${b.asset}`).join(', ')}; ${chain.run.differences.length} reconciliation difference(s)`
            : '  on chain: not reconciled yet (checkout-admin ledger reconcile)',
          ...(m.waiting.length === 0
            ? ['  no payouts waiting']
            : table(
                ['STATUS', 'COUNT', 'AMOUNT USDC', 'OLDEST'],
                m.waiting.map((w) => [w.status, String(w.count), usdcText(w.amount), ageText(w.oldestAgeSeconds)]),
              ).map((l) => `  ${l}`)),
        ];
      }),
    };
  },
});

const recordFunding = defineCommand({
  name: 'record-funding',
  summary:
    "record in the ledger a transaction that moved USDC or SOL into or out of a mode's treasury outside the service, as the chain shows it",
  options: {
    mode: { value: '<test|live>', description: 'the treasury it funded' },
    signature: { value: '<signature>', description: 'the landed transaction (base58); recording it again changes nothing' },
  },
  schema: z.object({ mode: ModeOption, signature: z.string().min(1) }),
  async run(context, input) {
    const view = configuredTreasuryViews(context).find((v) => v.mode === input.mode);
    if (!view) throw new CliError(`no ${input.mode} treasury to read: set SOLANA_TREASURY_ADDRESS_${input.mode.toUpperCase()}`);
    try {
      const posting = await recordTreasuryFunding(view, context.sql(), input.signature);
      const changes = posting.entries.filter((e) => e.account === ACCOUNT.treasury);
      return {
        json: {
          mode: input.mode,
          treasury: view.treasury,
          group_id: posting.groupId,
          changes: changes.map((e) => ({ asset: e.asset, amount: assetText(e.asset, e.amount), base_units: e.amount.toString() })),
        },
        text: [
          `${input.mode} treasury ${view.treasury}: recorded ${posting.groupId}: ${changes.map((e) => `${assetText(e.asset, e.amount)} ${e.asset}`).join(', ')}`,
        ],
        targets: [posting.groupId],
      };
    } catch (error) {
      if (error instanceof FundingRefused) throw new CliError(error.message);
      throw error;
    }
  },
});

export const treasuryCommands: CommandGroup = {
  name: 'treasury',
  summary: 'the Solana USDC treasury, as the payouts see it',
  commands: [status, recordFunding],
};
