// A session's deposit addresses: one derivation index per session, from its mode's Postgres sequence (migration
// 0029), kept for every later choice of token or chain. The worker derives the EVM and Tron addresses from account
// xpubs when it reserves the index; the Solana address needs the seed, so the signer derives it and it is written
// once, the first time a Solana pair is chosen (migration 0033).
import { isSolanaAddress } from '../../domain/addresses/solana';
import type { EvmAddress } from '../../domain/addresses/evm';
import type { Sql } from '../../db/client';
import type { SessionRecord } from '../../domain/session';
import { deriveEvmAddress, deriveTronAddress, type DepositXpubs } from './derive';

export type SessionDepositAddresses = { index: number; evm: EvmAddress; tron: string; solana: string | null };

export class DepositXpubsMissingError extends Error {
  override name = 'DepositXpubsMissingError';
}

type Row = { derivation_index: number; evm_address: EvmAddress; tron_address: string; solana_address: string | null };

const fromRow = (row: Row): SessionDepositAddresses => ({ index: row.derivation_index, evm: row.evm_address, tron: row.tron_address, solana: row.solana_address });

/** The session's addresses, reserving its index (and writing its EVM and Tron addresses) the first time. */
export async function reserveSessionDepositAddresses(tx: Sql, xpubs: DepositXpubs, record: SessionRecord): Promise<SessionDepositAddresses> {
  const [existing] = await tx<Row[]>`
    select derivation_index::int, evm_address, tron_address, solana_address from deposit_addresses where session_id = ${record.sessionId}`;
  if (existing) return fromRow(existing);
  const modeXpubs = xpubs[record.mode];
  if (!modeXpubs) {
    const suffix = record.mode.toUpperCase();
    throw new DepositXpubsMissingError(
      `${record.mode} deposit addresses need DEPOSIT_XPUB_EVM_${suffix} and DEPOSIT_XPUB_TRON_${suffix} (npm run signer -- --print-xpubs prints them)`,
    );
  }
  const sequence = record.mode === 'live' ? 'deposit_address_index_seq' : 'deposit_address_test_index_seq';
  const [{ index }] = (await tx`select nextval(${sequence})::int as index`) as unknown as [{ index: number }];
  const evm = deriveEvmAddress({ accountXpub: modeXpubs.evm }, index);
  const tron = deriveTronAddress({ accountXpub: modeXpubs.tron }, index);
  await tx`
    insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address)
    values (${record.sessionId}, ${record.mode}, ${index}, ${evm}, ${tron})`;
  return { index, evm, tron, solana: null };
}

/**
 * The session's Solana address: the stored one, else the signer's derivation for its index, stored now. A stored
 * address never changes, so a customer who was shown it can always pay it.
 */
export async function sessionSolanaAddress(tx: Sql, sessionId: string, stored: string | null, fromSigner: string | undefined): Promise<string> {
  if (stored) return stored;
  if (fromSigner === undefined || !isSolanaAddress(fromSigner)) {
    throw new Error(`session ${sessionId} has no Solana deposit address yet, and none derived by the signer was given`);
  }
  await tx`update deposit_addresses set solana_address = ${fromSigner} where session_id = ${sessionId} and solana_address is null`;
  return fromSigner;
}
