// The treasury's gauges on the API's registry, read from Postgres on each scrape: the on-chain
// balance and the differences of each mode's last reconciliation (worker/reconciliationSweeper.ts), the USDC
// unconfirmed payouts reserve, and payouts and chain intents waiting by age. Ages are cumulative ("older than"),
// so an alert is one series: checkout_payouts_waiting{older_than_seconds="600"} > 0. Amounts are base units, exact
// in a float up to 2^53 (9 billion USDC).
import type { Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { lastReconciliationRuns } from '../db/repositories/reconciliation';
import { ACCOUNT } from '../domain/ledger/ledger';
import { scrapedGauge, type Sample } from './scrapedGauge';

const MODES = ['test', 'live'] as const;
const WAITING_PAYOUTS = ['awaiting_liquidity', 'submitted'] as const;
const UNCONFIRMED_INTENTS = ['prepared', 'signed', 'broadcast'] as const;
const OLDER_THAN_SECONDS = [0, 60, 600, 3600] as const;

/** Per key, how many rows are older than each of OLDER_THAN_SECONDS, in that order. */
type AgedRow = { key: string; counts: number[] };

/** Counts per key and age threshold, every pair reported (zero included) so series never vanish. */
function agedSamples<L extends string>(
  keys: ReadonlyArray<Record<L, string>>,
  rows: readonly AgedRow[],
  keyOf: (labels: Record<L, string>) => string,
): Array<Sample<L | 'older_than_seconds'>> {
  return keys.flatMap((labels) => {
    const counts = rows.find((r) => r.key === keyOf(labels))?.counts ?? [];
    return OLDER_THAN_SECONDS.map(
      (threshold, i) =>
        [{ ...labels, older_than_seconds: String(threshold) } as Record<L | 'older_than_seconds', string>, counts[i] ?? 0] as const,
    );
  });
}

/** The count(*) filters of an AgedRow's counts, over a table's created_at. */
const agedCounts = (sql: Sql) =>
  sql.unsafe(
    `array[${OLDER_THAN_SECONDS.map((s) => `count(*) filter (where created_at <= now() - interval '${s} seconds')::int`).join(', ')}] as counts`,
  );

export function registerTreasuryMetrics(registry: Registry, sql: Sql): void {
  scrapedGauge(registry, {
    name: 'checkout_treasury_balance_base_units',
    help: "The treasury's on-chain balance at each mode's last reconciliation, by asset (usdc:solana, sol:solana)",
    labelNames: ['mode', 'asset'],
    read: async () =>
      (await lastReconciliationRuns(sql)).flatMap((run) =>
        run.balances
          .filter((b) => b.account === ACCOUNT.treasury)
          .map((b) => [{ mode: run.mode, asset: b.asset }, Number(b.observed)] as const),
      ),
  });
  scrapedGauge(registry, {
    name: 'checkout_reconciliation_differences',
    help: "1 where an account's ledger and on-chain balances differed at its mode's last reconciliation, 0 where they agreed, per mode, account and asset: alert on any 1",
    labelNames: ['mode', 'account', 'asset'],
    read: async () =>
      (await lastReconciliationRuns(sql)).flatMap((run) =>
        run.balances.map((a) => {
          const differs = run.differences.some((d) => d.account === a.account && d.asset === a.asset);
          return [{ mode: run.mode, account: a.account, asset: a.asset }, differs ? 1 : 0] as const;
        }),
      ),
  });
  scrapedGauge(registry, {
    name: 'checkout_reconciliation_difference_base_units',
    help: 'On chain minus ledger at the last reconciliation, per mode, account and asset (0 when they agree)',
    labelNames: ['mode', 'account', 'asset'],
    read: async () =>
      (await lastReconciliationRuns(sql)).flatMap((run) =>
        run.balances.map((a) => {
          const difference = run.differences.find((d) => d.account === a.account && d.asset === a.asset)?.difference ?? 0n;
          return [{ mode: run.mode, account: a.account, asset: a.asset }, Number(difference)] as const;
        }),
      ),
  });
  scrapedGauge(registry, {
    name: 'checkout_reconciliation_last_run_timestamp_seconds',
    help: "When each mode's last reconciliation ran: alert when it stops advancing",
    labelNames: ['mode'],
    read: async () => (await lastReconciliationRuns(sql)).map((run) => [{ mode: run.mode }, run.ranAt.getTime() / 1000] as const),
  });
  scrapedGauge(registry, {
    name: 'checkout_treasury_reserved_base_units',
    help: 'USDC base units the transactions of payouts not yet confirmed (pending, awaiting_liquidity, submitted) move: promised, not yet paid',
    labelNames: ['mode'],
    async read() {
      const rows = await sql<{ mode: string; amount: string }[]>`
        select mode, sum(amount_base_units - netted_base_units - fee_base_units)::text as amount from payouts where status in ('pending', 'awaiting_liquidity', 'submitted') group by mode`;
      return MODES.map((mode) => [{ mode }, Number(rows.find((r) => r.mode === mode)?.amount ?? 0)] as const);
    },
  });
  scrapedGauge(registry, {
    name: 'checkout_payouts_waiting',
    help: 'Payouts waiting, by mode and status (awaiting_liquidity, submitted), counted when older than older_than_seconds',
    labelNames: ['mode', 'status', 'older_than_seconds'],
    async read() {
      const rows = await sql<AgedRow[]>`
        select mode || ' ' || status as key, ${agedCounts(sql)} from payouts where status in ('awaiting_liquidity', 'submitted') group by mode, status`;
      const keys = MODES.flatMap((mode) => WAITING_PAYOUTS.map((status) => ({ mode, status })));
      return agedSamples(keys, rows, (l) => `${l.mode} ${l.status}`);
    },
  });
  scrapedGauge(registry, {
    name: 'checkout_chain_intents_unconfirmed',
    help: 'Transactions the service will sign or has signed that are not confirmed yet, by status, counted when older than older_than_seconds',
    labelNames: ['status', 'older_than_seconds'],
    async read() {
      const rows = await sql<AgedRow[]>`
        select status as key, ${agedCounts(sql)} from chain_intents where status in ('prepared', 'signed', 'broadcast') group by status`;
      return agedSamples(
        UNCONFIRMED_INTENTS.map((status) => ({ status })),
        rows,
        (l) => l.status,
      );
    },
  });
}
