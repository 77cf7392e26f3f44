// The signer's held-inventory withdrawers from configuration: on each EVM chain of held inventory (bsc), for each mode
// whose sweeper is configured (EVM_RELAYER_KEY_<MODE> and the chain's RPC endpoint) with EVM_DEPOSIT_COLLECTOR_<MODE>,
// the relayer calls the collector's rebalance through its own chain writer.
import type { Address } from 'viem';
import type { Config } from '../../config/env';
import { HELD_INVENTORY_CHAINS } from '../../domain/inventory/inventoryCaps';
import { createEvmChainWriter } from '../chainWrites/evmChainWriter';
import type { InventoryWithdrawers } from '../inventory/inventoryWithdrawals';
import type { EvmSweepDeps } from '../sweeps/evmSweep';
import type { EvmSweeperKey } from '../sweeps/evmSweeps';

export function inventoryWithdrawersFromConfig(
  config: Pick<Config, 'depositCollectors' | 'inventory'>,
  sweepers: Partial<Record<EvmSweeperKey, EvmSweepDeps>>,
): InventoryWithdrawers {
  const withdrawers: InventoryWithdrawers = {};
  for (const mode of ['test', 'live'] as const) {
    const collector = config.depositCollectors[mode];
    for (const chain of HELD_INVENTORY_CHAINS) {
      const sweeper = sweepers[`${chain}:${mode}` as EvmSweeperKey];
      if (!sweeper || !collector || chain === 'tron' || chain === 'solana') continue;
      withdrawers[`${chain}:${mode}`] = {
        sql: sweeper.sql,
        mode,
        chain,
        client: sweeper.client,
        writer: createEvmChainWriter(sweeper),
        collector: collector as Address,
        tokens: sweeper.tokens,
        confirmations: sweeper.requiredConfirmations,
        rebalanceAddress: config.inventory.rebalanceAddresses[mode][chain],
      };
    }
  }
  return withdrawers;
}
