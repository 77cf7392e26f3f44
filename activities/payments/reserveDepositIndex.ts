// Before a Solana pair is prepared: the session's derivation index (reserved now if it has none), so the signer
// can derive the Solana address for it, and the Solana address if one is stored already or the signer derived it
// ahead (solanaAddressPool.ts), so it need not.
import type { Sql } from '../../db/client';
import type { SessionRecord } from '../../domain/session';
import { pooledSolanaAddress } from '../depositAddresses/solanaAddressPool';
import { reserveSessionDepositAddresses, sessionSolanaAddress, type DepositAddressSources } from '../depositAddresses/sessionDepositAddresses';

export type ReservedDepositIndex = { index: number; solanaAddress: string | null };

export function createReserveDepositIndex(deps: { sql: Sql } & DepositAddressSources) {
  return async function reserveDepositIndex(record: SessionRecord): Promise<ReservedDepositIndex> {
    return deps.sql.begin(async (tx) => {
      const addresses = await reserveSessionDepositAddresses(tx as unknown as Sql, deps, record);
      if (addresses.solana) return { index: addresses.index, solanaAddress: addresses.solana };
      // The signer's derivation for this index, made ahead: stored now, so the workflow need not ask the signer.
      const pooled = await pooledSolanaAddress(tx, record.mode, addresses.index);
      return { index: addresses.index, solanaAddress: pooled ? await sessionSolanaAddress(tx as unknown as Sql, record.sessionId, null, pooled) : null };
    });
  };
}
