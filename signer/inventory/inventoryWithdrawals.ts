// The signer's held-inventory withdrawal activity: one withdrawer per (EVM chain of held inventory, mode) the signer
// was configured for (signer/worker.ts). A pair without one answers no_route and touches nothing.
import type { Chain } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
import { createEvmInventoryWithdrawal, type EvmInventoryWithdrawalDeps, type WithdrawalAnswer } from './evmInventoryWithdrawal';

export type InventoryWithdrawers = Partial<Record<`${Chain}:${Mode}`, EvmInventoryWithdrawalDeps>>;

export interface WithdrawalRef {
  mode: Mode;
  chain: Chain;
  withdrawalId: string;
}

export function createInventoryWithdrawalActivities(withdrawers: InventoryWithdrawers) {
  const built = new Map<string, ReturnType<typeof createEvmInventoryWithdrawal>>();
  return {
    async advanceInventoryWithdrawal(ref: WithdrawalRef): Promise<WithdrawalAnswer | { status: 'no_route' }> {
      const key = `${ref.chain}:${ref.mode}` as const;
      const deps = withdrawers[key];
      if (!deps) return { status: 'no_route' };
      let withdrawer = built.get(key);
      if (!withdrawer) {
        withdrawer = createEvmInventoryWithdrawal(deps);
        built.set(key, withdrawer);
      }
      return withdrawer.advance(ref.withdrawalId);
    },
  };
}
