// The API process's Prometheus registry: request durations by matched route pattern and status, sessions by
// status read from the read model on each scrape, the treasury's gauges (treasuryMetrics.ts), and Node's process
// metrics (RSS, heap, event loop lag).
// One registry per app, so several apps in one process (the tests) never register a metric twice.
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { SESSION_STATUSES } from '../domain/wire/status';
import type { InventoryCaps } from '../domain/inventory/inventoryCaps';
import { registerEvmSweepMetrics } from './evmSweepMetrics';
import { registerInventoryMetrics } from './inventoryMetrics';
import { scrapedGauge } from './scrapedGauge';
import { registerTransferMetrics } from './transferMetrics';
import { registerTreasuryMetrics } from './treasuryMetrics';

export interface ApiMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
}

const MODES = ['test', 'live'] as const;

/** `caps` (INVENTORY_CAPS) decide checkout_inventory_at_cap. */
export function createApiMetrics(sql: Sql, caps: InventoryCaps = new Map()): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'checkout_http_request_duration_seconds',
    help: 'API request duration, by the router pattern that matched (unmatched for none) and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  scrapedGauge(registry, {
    name: 'checkout_sessions',
    help: 'Checkout sessions in the read model, by status and mode',
    labelNames: ['status', 'mode'],
    // One grouped count per scrape; every status/mode pair is reported, zero included, so series never vanish.
    async read() {
      const rows = await sql<{ status: string; mode: string; count: number }[]>`
        select status, mode, count(*)::int as count from sessions group by status, mode`;
      return SESSION_STATUSES.flatMap((status) =>
        MODES.map((mode) => [{ status, mode }, rows.find((r) => r.status === status && r.mode === mode)?.count ?? 0] as const),
      );
    },
  });
  registerTreasuryMetrics(registry, sql);
  registerEvmSweepMetrics(registry, sql);
  registerTransferMetrics(registry, sql);
  registerInventoryMetrics(registry, sql, caps);
  return { registry, httpDuration };
}
