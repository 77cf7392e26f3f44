// Before a Solana pair is prepared: the session's derivation index (reserved now if it has none), so the signer
// can derive the Solana address for it, and the Solana address if one is stored already, so it need not.
import type { Sql } from '../../db/client';
import type { SessionRecord } from '../../domain/session';
import { reserveSessionDepositAddresses, type DepositAddressSources } from '../depositAddresses/sessionDepositAddresses';

export type ReservedDepositIndex = { index: number; solanaAddress: string | null };

export function createReserveDepositIndex(deps: { sql: Sql } & DepositAddressSources) {
  return async function reserveDepositIndex(record: SessionRecord): Promise<ReservedDepositIndex> {
    const addresses = await deps.sql.begin((tx) => reserveSessionDepositAddresses(tx as unknown as Sql, deps, record));
    return { index: addresses.index, solanaAddress: addresses.solana };
  };
}
