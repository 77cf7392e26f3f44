// Durable nonce accounts of a Solana treasury (docs/settlement.md#payouts): which one a payout may be signed against.
// Each payout transaction names one nonce; a nonce account is handed to a payout only once the nonce its previous
// payout was signed against has moved on in the finalized chain, so no two transactions in flight share a nonce and
// a payout's transaction, which never expires, is never signed twice.
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { createAddressWithSeed, type Address } from '@solana/kit';

/** Payouts of one treasury in flight at once: each holds a nonce account until its transaction moves the nonce. */
export const PAYOUT_NONCE_ACCOUNTS = 4;

/** The createAccountWithSeed seeds of a treasury's nonce accounts: their addresses follow from the treasury alone. */
export const payoutNonceSeeds = (): string[] => Array.from({ length: PAYOUT_NONCE_ACCOUNTS }, (_, index) => `payout-nonce-${index}`);

/** The chain intent that creates a treasury's nonce accounts. */
export const noncePoolIntentId = (treasury: string) => `nonce-pool:${treasury}`;

/** A nonce account as the finalized chain holds it. */
export interface FinalizedNonce {
  authority: string;
  nonce: string;
}

export interface PoolAccount {
  address: string;
  /** The nonce the payout holding the account was signed against; null when no payout holds it. */
  heldNonce: string | null;
  /** null: no initialized nonce account at the address in the finalized chain (yet). */
  finalized: FinalizedNonce | null;
}

/** The first account the treasury may sign a new payout against, and the nonce to sign with; undefined: wait. */
export function pickNonceAccount(accounts: PoolAccount[], treasury: string): { address: string; nonce: string } | undefined {
  for (const account of accounts) {
    const { finalized, heldNonce } = account;
    if (finalized === null || finalized.authority !== treasury) continue;
    if (heldNonce === null || finalized.nonce !== heldNonce) return { address: account.address, nonce: finalized.nonce };
  }
  return undefined;
}

export interface PoolAddress {
  address: Address;
  seed: string;
}

/** The treasury's nonce account addresses, one per seed. */
export function payoutNonceAddresses(treasury: Address): Promise<PoolAddress[]> {
  return Promise.all(
    payoutNonceSeeds().map(async (seed) => ({
      seed,
      address: await createAddressWithSeed({ baseAddress: treasury, programAddress: SYSTEM_PROGRAM_ADDRESS, seed }),
    })),
  );
}
