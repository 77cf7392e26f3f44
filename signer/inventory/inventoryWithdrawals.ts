// The signer's held-inventory withdrawal activity: one withdrawer per (chain of held inventory, mode) the signer was
// configured for (signer/worker.ts): bsc's through its EVM relayer, Tron's through its Tron relayer. A pair without one
// answers no_route and touches nothing.
import type { Chain } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
import { createEvmInventoryWithdrawal, type EvmInventoryWithdrawalDeps } from './evmInventoryWithdrawal';
import { createTronInventoryWithdrawal, type TronInventoryWithdrawalDeps } from './tronInventoryWithdrawal';
import type { WithdrawalAnswer } from './withdrawalRow';

export type InventoryWithdrawer = { kind: 'evm'; deps: EvmInventoryWithdrawalDeps } | { kind: 'tron'; deps: TronInventoryWithdrawalDeps };

export type InventoryWithdrawers = Partial<Record<`${Chain}:${Mode}`, InventoryWithdrawer>>;

export interface WithdrawalRef {
  mode: Mode;
  chain: Chain;
  withdrawalId: string;
}

const create = (withdrawer: InventoryWithdrawer) =>
  withdrawer.kind === 'evm' ? createEvmInventoryWithdrawal(withdrawer.deps) : createTronInventoryWithdrawal(withdrawer.deps);

export function createInventoryWithdrawalActivities(withdrawers: InventoryWithdrawers) {
  const built = new Map<string, ReturnType<typeof create>>();
  return {
    async advanceInventoryWithdrawal(ref: WithdrawalRef): Promise<WithdrawalAnswer | { status: 'no_route' }> {
      const key = `${ref.chain}:${ref.mode}` as const;
      const withdrawer = withdrawers[key];
      if (!withdrawer) return { status: 'no_route' };
      let advancing = built.get(key);
      if (!advancing) {
        advancing = create(withdrawer);
        built.set(key, advancing);
      }
      return advancing.advance(ref.withdrawalId);
    },
  };
}
