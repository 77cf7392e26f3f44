// Every activity the signer worker registers (worker/createSignerWorker.ts): those that need signing material,
// which no other process holds (SETTLEMENT.md rule 4). Workflows import the type only.
import { createDeriveSolanaDepositAddress } from './depositAddresses/solanaDepositAddress';
import type { DepositSeeds } from './depositAddresses/seed';

export interface SignerDeps {
  /** Made once at start from DEPOSIT_MNEMONIC_TEST / DEPOSIT_MNEMONIC_LIVE (seed.ts `depositSeeds`). */
  depositSeeds: DepositSeeds;
}

export function createSignerActivities(deps: SignerDeps) {
  return {
    deriveSolanaDepositAddress: createDeriveSolanaDepositAddress({ depositSeeds: deps.depositSeeds }),
  };
}

export type SignerActivities = ReturnType<typeof createSignerActivities>;
