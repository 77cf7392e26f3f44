// The signer's share of a session's deposit addresses: SLIP-0010 ed25519 is hardened-only, so the Solana address
// for an index needs the seed itself (derive.ts). The seeds are made once when the signer starts, never per call.
import type { Mode } from '../../domain/session';
import { deriveSolanaAddress } from './derive';
import { DepositSeedRefusedError, type DepositSeeds } from './seed';

export type SolanaDepositAddressRequest = { mode: Mode; index: number };

export function createDeriveSolanaDepositAddress(deps: { depositSeeds: DepositSeeds }) {
  return async function deriveSolanaDepositAddress(request: SolanaDepositAddressRequest): Promise<string> {
    const seed = deps.depositSeeds[request.mode];
    if (!seed) throw new DepositSeedRefusedError('missing_mnemonic', 'live mode needs a deposit-address mnemonic; the signer was given no DEPOSIT_MNEMONIC_LIVE');
    return deriveSolanaAddress(seed, request.index);
  };
}
