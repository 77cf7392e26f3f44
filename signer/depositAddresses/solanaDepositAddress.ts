// The signer's share of a session's deposit addresses: SLIP-0010 ed25519 is hardened-only, so the Solana address
// for an index needs the seed itself (derive.ts). The seeds are made once when the signer starts, never per call.
// The answer is recorded in the pool before it is given: the worker shows a customer only an address the pool holds
// for the session's index (db/migrations/0007_signer_recorded_addresses.sql), so whoever else polls the signer's
// task queue cannot hand a session an address of theirs. Each derivation also keeps the pool of the next indexes'
// addresses filled (solanaAddressPool.ts).
import { log } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import type { Mode } from '../../domain/wire/session';
import { deriveSolanaAddress } from '../../domain/addresses/hdDerivation';
import { DepositSeedRefusedError, type DepositSeeds } from '../../domain/addresses/depositSeed';
import { insertPooledSolanaAddresses } from '../../db/repositories/depositAddresses';
import { refillSolanaAddressPool } from './solanaAddressPool';

export type SolanaDepositAddressRequest = { mode: Mode; index: number };

export function createDeriveSolanaDepositAddress(deps: { depositSeeds: DepositSeeds; addressPool?: Sql }) {
  return async function deriveSolanaDepositAddress(request: SolanaDepositAddressRequest): Promise<string> {
    const seed = deps.depositSeeds[request.mode];
    if (!seed)
      throw new DepositSeedRefusedError(
        'missing_mnemonic',
        'live mode needs a deposit-address mnemonic; the signer was given no DEPOSIT_MNEMONIC_LIVE',
      );
    if (!deps.addressPool)
      throw new Error('the signer records each Solana deposit address it derives, the only ones the worker shows: it needs DATABASE_URL');
    const address = deriveSolanaAddress(seed, request.index);
    await insertPooledSolanaAddresses(deps.addressPool, [{ mode: request.mode, derivation_index: request.index, address }]);
    // The next indexes only save later sessions a round trip: a failed refill must not fail this one's choice.
    await refillSolanaAddressPool(deps.addressPool, seed, request.mode, request.index).catch((error: unknown) =>
      log.warn('the Solana deposit address pool was not refilled; later Solana choices ask the signer', {
        mode: request.mode,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return address;
  };
}
