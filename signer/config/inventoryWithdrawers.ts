// The signer's held-inventory withdrawers from configuration. On bsc, for each mode whose sweeper is configured
// (EVM_RELAYER_KEY_<MODE> and the chain's RPC endpoint) with EVM_DEPOSIT_COLLECTOR_<MODE>, the relayer calls the
// collector's rebalance through its own chain writer; on Tron, for each mode whose Tron sweeper is configured
// (TRON_RELAYER_KEY_<MODE>, TRON_HTTP_API_URL_<NETWORK>) with TRON_DEPOSIT_COLLECTOR_<MODE>, the Tron relayer does.
import type { Address } from 'viem';
import type { Config } from '../../config/env';
import { createEvmChainWriter } from '../chainWrites/evmChainWriter';
import type { InventoryWithdrawers } from '../inventory/inventoryWithdrawals';
import type { EvmSweepDeps } from '../sweeps/evmSweep';
import type { EvmSweeperKey } from '../sweeps/evmSweeps';
import type { TronSweepDeps } from '../sweeps/tronSweep';
import type { Mode } from '../../domain/wire/session';

export function inventoryWithdrawersFromConfig(
  config: Pick<Config, 'depositCollectors' | 'inventory'>,
  sweepers: Partial<Record<EvmSweeperKey, EvmSweepDeps>>,
  tronSweepers: Partial<Record<Mode, TronSweepDeps>> = {},
): InventoryWithdrawers {
  const withdrawers: InventoryWithdrawers = {};
  for (const mode of ['test', 'live'] as const) {
    const collector = config.depositCollectors[mode];
    const sweeper = sweepers[`bsc:${mode}`];
    if (sweeper && collector) {
      withdrawers[`bsc:${mode}`] = {
        kind: 'evm',
        deps: {
          sql: sweeper.sql,
          mode,
          chain: 'bsc',
          client: sweeper.client,
          writer: createEvmChainWriter(sweeper),
          collector: collector as Address,
          tokens: sweeper.tokens,
          confirmations: sweeper.requiredConfirmations,
          rebalanceAddress: config.inventory.rebalanceAddresses[mode].bsc,
        },
      };
    }
    const tron = tronSweepers[mode];
    if (tron?.collector) {
      withdrawers[`tron:${mode}`] = {
        kind: 'tron',
        deps: {
          sql: tron.sql,
          api: tron.api,
          relayer: tron.relayer,
          mode,
          expirationMs: tron.expirationMs,
          collector: tron.collector,
          tokens: tron.tokens,
          feeLimitSun: tron.feeLimitSun,
          rebalanceAddress: config.inventory.rebalanceAddresses[mode].tron,
        },
      };
    }
  }
  return withdrawers;
}
