// The sweep inventory's gauges on the API's registry, read from Postgres on each scrape: what each
// chain's collector holds per asset by the ledger (collector:<chain>: swept, not yet moved on), the relayers' gas
// per chain as the signer last read it, and how long the oldest deposit no sweep has taken (at a forwarder or an HD
// address) has waited, per EVM chain and Tron: alert when it passes a few sweep intervals. The names say evm from
// before Tron had forwarders; dashboards keep them.
import type { Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { oldestUnsweptDeposits } from '../db/repositories/collectorSweeps';
import { relayerBalances } from '../db/repositories/relayerBalances';
import type { Chain } from '../domain/chains/chains';
import { assetDecimals, nativeAsset } from '../domain/ledger/ledger';
import { FORWARDER_CHAINS } from '../domain/sweeps/evmSweepPlan';
import { scrapedGauge } from './scrapedGauge';

const MODES = ['test', 'live'] as const;

const secondsSince = (at: Date) => Math.max(0, (Date.now() - at.getTime()) / 1000);

export function registerEvmSweepMetrics(registry: Registry, sql: Sql): void {
  scrapedGauge(registry, {
    name: 'checkout_collector_inventory_base_units',
    help: "What each chain's collector holds by the ledger (collector:<chain>), per mode and asset (usdc:base, usdt:tron, …)",
    labelNames: ['mode', 'chain', 'asset'],
    async read() {
      const rows = await sql<Array<{ mode: string; account: string; asset: string; total: string }>>`
        select mode, account, asset, sum(amount)::text as total from ledger_entries where account like 'collector:%' group by mode, account, asset`;
      return rows.map((r) => [{ mode: r.mode, chain: r.account.slice('collector:'.length), asset: r.asset }, Number(r.total)] as const);
    },
  });
  scrapedGauge(registry, {
    name: 'checkout_relayer_gas_balance',
    help: "The relayer's native coin (ETH, POL, BNB, TRX) per mode and EVM chain or Tron, as the signer last read it at a sweep run",
    labelNames: ['mode', 'chain'],
    // Whole coins (18 decimals on EVM chains, 6 on Tron); a float keeps what an alert threshold needs.
    read: async () =>
      (await relayerBalances(sql)).map(
        (r) => [{ mode: r.mode, chain: r.chain }, Number(r.balanceWei) / 10 ** assetDecimals(nativeAsset(r.chain as Chain))] as const,
      ),
  });
  scrapedGauge(registry, {
    name: 'checkout_relayer_gas_observed_age_seconds',
    help: "How long ago the signer last read the relayer's native coin, per mode and EVM chain or Tron",
    labelNames: ['mode', 'chain'],
    read: async () => (await relayerBalances(sql)).map((r) => [{ mode: r.mode, chain: r.chain }, secondsSince(r.observedAt)] as const),
  });
  scrapedGauge(registry, {
    name: 'checkout_evm_unswept_deposit_age_seconds',
    help: 'How long the oldest confirmed deposit no sweep has taken (forwarder or HD address) has waited, per mode and EVM chain or Tron (0: none)',
    labelNames: ['mode', 'chain'],
    async read() {
      const rows = await oldestUnsweptDeposits(sql);
      return MODES.flatMap((mode) =>
        FORWARDER_CHAINS.map((chain) => {
          const oldest = rows.find((r) => r.mode === mode && r.chain === chain)?.oldest;
          return [{ mode, chain }, oldest ? secondsSince(oldest) : 0] as const;
        }),
      );
    },
  });
}
