// The ledger's balances of the held pairs (domain/inventory/inventoryExposure.ts), per mode: one grouped read over
// the accounts that hold them, by the (mode, account, asset) index.
import { ACCOUNT, tokenAsset } from '../../domain/ledger/ledger';
import { INVENTORY_ACCOUNT } from '../../domain/ledger/inventoryPostings';
import { HELD_INVENTORY_PAIRS, type InventoryPair } from '../../domain/inventory/inventoryCaps';
import type { HeldAssetBalances } from '../../domain/inventory/inventoryExposure';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface HeldPairBalances extends HeldAssetBalances {
  pair: InventoryPair;
}

export async function heldInventoryBalances(sql: Queryable, mode: Mode): Promise<HeldPairBalances[]> {
  const accountsOf = (pair: InventoryPair) => ({
    crossChainClearing: ACCOUNT.crossChainClearing,
    collector: ACCOUNT.collector(pair.chain),
    rebalancing: INVENTORY_ACCOUNT.rebalancing(pair.chain),
    deposits: ACCOUNT.depositsOn(pair.chain),
  });
  const accounts = [...new Set(HELD_INVENTORY_PAIRS.flatMap((pair) => Object.values(accountsOf(pair))))];
  const assets = HELD_INVENTORY_PAIRS.map((pair) => tokenAsset(pair.token, pair.chain));
  const rows = await sql<{ account: string; asset: string; balance: string }[]>`
    select account, asset, sum(amount)::text as balance from ledger_entries
    where mode = ${mode} and account = any(${accounts}) and asset = any(${assets})
    group by account, asset`;
  const balance = (account: string, asset: string) => BigInt(rows.find((r) => r.account === account && r.asset === asset)?.balance ?? '0');
  return HELD_INVENTORY_PAIRS.map((pair) => {
    const asset = tokenAsset(pair.token, pair.chain);
    const named = accountsOf(pair);
    return {
      pair,
      asset,
      crossChainClearing: balance(named.crossChainClearing, asset),
      collector: balance(named.collector, asset),
      rebalancing: balance(named.rebalancing, asset),
      deposits: balance(named.deposits, asset),
    };
  });
}
