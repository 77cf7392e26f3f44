// The EVM inventory's gauges on the API's registry (issue 14 item 6), read from Postgres on each scrape: what each
// chain's collector holds per asset by the ledger (collector:<chain>: swept, not yet moved on), and how long the
// oldest deposit no sweep has taken (at a forwarder or an HD address) has waited, per chain: alert when it passes a
// few sweep intervals.
import { Gauge, type Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { oldestUnsweptEvmDeposits } from '../db/repositories/evmSweeps';
import { EVM_CHAINS } from '../domain/evmSweepPlan';

const MODES = ['test', 'live'] as const;

export function registerEvmSweepMetrics(registry: Registry, sql: Sql): void {
  new Gauge({
    name: 'checkout_collector_inventory_base_units',
    help: "What each EVM chain's collector holds by the ledger (collector:<chain>), per mode and asset (usdc:base, …)",
    labelNames: ['mode', 'chain', 'asset'] as const,
    registers: [registry],
    async collect() {
      const rows = await sql<Array<{ mode: string; account: string; asset: string; total: string }>>`
        select mode, account, asset, sum(amount)::text as total from ledger_entries where account like 'collector:%' group by mode, account, asset`;
      this.reset();
      for (const r of rows) this.set({ mode: r.mode, chain: r.account.slice('collector:'.length), asset: r.asset }, Number(r.total));
    },
  });
  new Gauge({
    name: 'checkout_evm_unswept_deposit_age_seconds',
    help: 'How long the oldest confirmed deposit no sweep has taken (forwarder or HD address) has waited, per mode and EVM chain (0: none)',
    labelNames: ['mode', 'chain'] as const,
    registers: [registry],
    async collect() {
      const rows = await oldestUnsweptEvmDeposits(sql);
      this.reset();
      for (const mode of MODES) {
        for (const chain of EVM_CHAINS) {
          const oldest = rows.find((r) => r.mode === mode && r.chain === chain)?.oldest;
          this.set({ mode, chain }, oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
        }
      }
    },
  });
}
