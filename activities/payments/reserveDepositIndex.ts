// Before a Solana pair is prepared, as histories recorded before choosePayment.ts replay it: the session's derivation
// index (reserved now if it has none), so the signer can derive the Solana address for it, and the Solana address if
// one is stored already or the signer derived it ahead (solanaAddressPool.ts), so it need not.
import { pipelined, type Sql } from '../../db/client';
import type { SessionRecord } from '../../domain/wire/session';
import { lookUpSessionDepositAddresses, sessionDepositAddressWrites, type DepositAddressSources } from '../depositAddresses/sessionDepositAddresses';

export type ReservedDepositIndex = { index: number; solanaAddress: string | null };

export function createReserveDepositIndex(deps: { sql: Sql } & DepositAddressSources) {
  return async function reserveDepositIndex(record: SessionRecord): Promise<ReservedDepositIndex> {
    const addresses = await lookUpSessionDepositAddresses(deps.sql, deps, record);
    const solanaAddress = addresses.solana ?? addresses.pooledSolana;
    await pipelined(sessionDepositAddressWrites(deps.sql, deps, record, addresses, solanaAddress));
    return { index: addresses.index, solanaAddress };
  };
}
