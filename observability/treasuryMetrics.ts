// The treasury's gauges on the API's registry (issue 13 item 9), read from Postgres on each scrape: the on-chain
// balance and the differences of each mode's last reconciliation (worker/reconciliationSweeper.ts), the USDC
// unconfirmed payouts reserve, and payouts and chain intents waiting by age. Ages are cumulative ("older than"),
// so an alert is one series: checkout_payouts_waiting{older_than_seconds="600"} > 0. Amounts are base units, exact
// in a float up to 2^53 (9 billion USDC).
import { Gauge, type Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { lastReconciliationRuns } from '../db/repositories/reconciliation';
import { ACCOUNT } from '../domain/ledger';
import { RECONCILED_ACCOUNTS } from '../domain/reconciliation';

const MODES = ['test', 'live'] as const;
const WAITING_PAYOUTS = ['awaiting_liquidity', 'submitted'] as const;
const UNCONFIRMED_INTENTS = ['prepared', 'signed', 'broadcast'] as const;
const OLDER_THAN_SECONDS = [0, 60, 600, 3600] as const;

/** Per key, how many rows are older than each of OLDER_THAN_SECONDS, in that order. */
type AgedRow = { key: string; counts: number[] };

/** Counts per key and age threshold, every pair reported (zero included) so series never vanish. */
function setAgedCounts(gauge: Gauge<string>, keys: ReadonlyArray<Record<string, string>>, rows: readonly AgedRow[], keyOf: (labels: Record<string, string>) => string): void {
  gauge.reset();
  for (const labels of keys) {
    const counts = rows.find((r) => r.key === keyOf(labels))?.counts ?? [];
    OLDER_THAN_SECONDS.forEach((threshold, i) => gauge.set({ ...labels, older_than_seconds: String(threshold) }, counts[i] ?? 0));
  }
}

/** The count(*) filters of an AgedRow's counts, over a table's created_at. */
const agedCounts = (sql: Sql) => sql.unsafe(`array[${OLDER_THAN_SECONDS.map((s) => `count(*) filter (where created_at <= now() - interval '${s} seconds')::int`).join(', ')}] as counts`);

export function registerTreasuryMetrics(registry: Registry, sql: Sql): void {
  new Gauge({
    name: 'checkout_treasury_balance_base_units',
    help: "The treasury's on-chain balance at each mode's last reconciliation, by asset (usdc:solana, sol:solana)",
    labelNames: ['mode', 'asset'] as const,
    registers: [registry],
    async collect() {
      const runs = await lastReconciliationRuns(sql);
      this.reset();
      for (const run of runs) for (const b of run.balances.filter((x) => x.account === ACCOUNT.treasury)) this.set({ mode: run.mode, asset: b.asset }, Number(b.observed));
    },
  });
  new Gauge({
    name: 'checkout_reconciliation_differences',
    help: "Accounts whose ledger and on-chain balances differed at each mode's last reconciliation",
    labelNames: ['mode'] as const,
    registers: [registry],
    async collect() {
      const runs = await lastReconciliationRuns(sql);
      this.reset();
      for (const run of runs) this.set({ mode: run.mode }, run.differences.length);
    },
  });
  new Gauge({
    name: 'checkout_reconciliation_difference_base_units',
    help: 'On chain minus ledger at the last reconciliation, per mode, account and asset (0 when they agree)',
    labelNames: ['mode', 'account', 'asset'] as const,
    registers: [registry],
    async collect() {
      const runs = await lastReconciliationRuns(sql);
      this.reset();
      for (const run of runs) {
        for (const a of RECONCILED_ACCOUNTS) {
          const difference = run.differences.find((d) => d.account === a.account && d.asset === a.asset)?.difference ?? 0n;
          this.set({ mode: run.mode, account: a.account, asset: a.asset }, Number(difference));
        }
      }
    },
  });
  new Gauge({
    name: 'checkout_reconciliation_last_run_timestamp_seconds',
    help: "When each mode's last reconciliation ran: alert when it stops advancing",
    labelNames: ['mode'] as const,
    registers: [registry],
    async collect() {
      const runs = await lastReconciliationRuns(sql);
      this.reset();
      for (const run of runs) this.set({ mode: run.mode }, run.ranAt.getTime() / 1000);
    },
  });
  new Gauge({
    name: 'checkout_treasury_reserved_base_units',
    help: 'USDC base units of payouts not yet confirmed (pending, awaiting_liquidity, submitted): promised, not yet paid',
    labelNames: ['mode'] as const,
    registers: [registry],
    async collect() {
      const rows = await sql<{ mode: string; amount: string }[]>`
        select mode, sum(amount_base_units)::text as amount from payouts where status in ('pending', 'awaiting_liquidity', 'submitted') group by mode`;
      this.reset();
      for (const mode of MODES) this.set({ mode }, Number(rows.find((r) => r.mode === mode)?.amount ?? 0));
    },
  });
  new Gauge({
    name: 'checkout_payouts_waiting',
    help: 'Payouts waiting, by mode and status (awaiting_liquidity, submitted), counted when older than older_than_seconds',
    labelNames: ['mode', 'status', 'older_than_seconds'] as const,
    registers: [registry],
    async collect() {
      const rows = await sql<AgedRow[]>`
        select mode || ' ' || status as key, ${agedCounts(sql)} from payouts where status in ('awaiting_liquidity', 'submitted') group by mode, status`;
      const keys = MODES.flatMap((mode) => WAITING_PAYOUTS.map((status) => ({ mode, status })));
      setAgedCounts(this, keys, rows, (l) => `${l.mode} ${l.status}`);
    },
  });
  new Gauge({
    name: 'checkout_chain_intents_unconfirmed',
    help: 'Transactions the service will sign or has signed that are not confirmed yet, by status, counted when older than older_than_seconds',
    labelNames: ['status', 'older_than_seconds'] as const,
    registers: [registry],
    async collect() {
      const rows = await sql<AgedRow[]>`
        select status as key, ${agedCounts(sql)} from chain_intents where status in ('prepared', 'signed', 'broadcast') group by status`;
      setAgedCounts(this, UNCONFIRMED_INTENTS.map((status) => ({ status })), rows, (l) => l.status as string);
    },
  });
}
