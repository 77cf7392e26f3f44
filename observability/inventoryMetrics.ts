// Held inventory's gauges on the API's registry, read from the ledger on each scrape (docs/settlement.md#held-inventory):
// each held pair's exposure per mode, and 1 where it has reached its INVENTORY_CAPS cap (offered to no new session),
// 0 where a capped pair is below it: alert on checkout_inventory_at_cap == 1.
import type { Registry } from 'prom-client';
import type { Sql } from '../db/client';
import { heldInventoryBalances } from '../db/repositories/heldInventory';
import { inventoryCapFor, isAtCap, type InventoryCaps } from '../domain/inventory/inventoryCaps';
import { inventoryExposure } from '../domain/inventory/inventoryExposure';
import { assetDecimals } from '../domain/ledger/ledger';
import { scrapedGauge } from './scrapedGauge';

const MODES = ['test', 'live'] as const;

export function registerInventoryMetrics(registry: Registry, sql: Sql, caps: InventoryCaps): void {
  const judged = async () =>
    (await Promise.all(MODES.map(async (mode) => (await heldInventoryBalances(sql, mode)).map((b) => ({ mode, b })))))
      .flat()
      .map(({ mode, b }) => {
        const cap = inventoryCapFor(caps, b.pair);
        const { exposure } = inventoryExposure(b);
        const labels = { mode, token: b.pair.token, chain: b.pair.chain };
        return { labels, cap, exposure, atCap: isAtCap(exposure, cap, assetDecimals(b.asset)) };
      });
  scrapedGauge(registry, {
    name: 'checkout_inventory_exposure_base_units',
    help: "What the treasury paid out against each held pair and has not got back, in the token's base units, per mode",
    labelNames: ['mode', 'token', 'chain'],
    read: async () => (await judged()).map((j) => [j.labels, Number(j.exposure)] as const),
  });
  scrapedGauge(registry, {
    name: 'checkout_inventory_at_cap',
    help: 'Per mode and capped held pair, 1 when its exposure has reached its INVENTORY_CAPS cap (no new session is offered it), else 0',
    labelNames: ['mode', 'token', 'chain'],
    read: async () =>
      caps.size === 0 ? [] : (await judged()).filter((j) => j.cap !== undefined).map((j) => [j.labels, j.atCap ? 1 : 0] as const),
  });
}
