// Which held pairs are at their INVENTORY_CAPS cap, read from the ledger when a new session's offer is made
// (docs/settlement.md#held-inventory): such a pair is left out of the new session's supported_tokens and of GET
// /checkout/tokens' payable, never taken from a session that was offered it. Each crossing is logged once per
// process, as a warning when a pair reaches its cap and as information when it falls below.
import type { Config } from '../config/env';
import type { Queryable } from '../db/client';
import { heldInventoryBalances } from '../db/repositories/heldInventory';
import { capCrossings, inventoryCapFor, isAtCap, pairText, type InventoryPair } from '../domain/inventory/inventoryCaps';
import { inventoryExposure } from '../domain/inventory/inventoryExposure';
import { assetDecimals } from '../domain/ledger/ledger';
import type { Mode } from '../domain/wire/session';
import type { Logger } from '../observability/logger';

export interface InventoryCapGate {
  /** The held pairs of `mode` whose exposure has reached their cap; none without a configured cap. */
  atCap(mode: Mode): Promise<InventoryPair[]>;
}

export function createInventoryCapGate(config: Pick<Config, 'inventory'>, sql: Queryable, logger: Logger): InventoryCapGate {
  const { caps } = config.inventory;
  const known: Record<Mode, Set<string>> = { test: new Set(), live: new Set() };
  return {
    async atCap(mode) {
      if (caps.size === 0) return [];
      const judged = (await heldInventoryBalances(sql, mode)).map((balances) => {
        const cap = inventoryCapFor(caps, balances.pair);
        const { exposure } = inventoryExposure(balances);
        return { pair: balances.pair, asset: balances.asset, cap, exposure, atCap: isAtCap(exposure, cap, assetDecimals(balances.asset)) };
      });
      const capped = judged.filter((j) => j.atCap);
      const now = new Set(capped.map((j) => pairText(j.pair)));
      const { reached, left } = capCrossings(known[mode], now);
      known[mode] = now;
      for (const j of judged.filter((j) => reached.includes(pairText(j.pair)))) {
        logger.warn(
          { mode, pair: pairText(j.pair), exposure_base_units: j.exposure.toString(), cap_usd: j.cap?.toString() },
          'held inventory at its cap: the pair is offered to no new session until it is withdrawn and rebalanced (checkout-admin inventory withdraw)',
        );
      }
      for (const pair of left) logger.info({ mode, pair }, 'held inventory below its cap again: the pair is offered to new sessions');
      return capped.map((j) => j.pair);
    },
  };
}
