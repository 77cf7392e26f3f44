// A session's deposit addresses: one derivation index per session, from its mode's Postgres sequence (migration
// 0029), kept for every later choice of token or chain. When it reserves the index the worker writes the EVM and Tron
// addresses: the session's forwarder clone where the mode has a factory for that family (computed offline, no key),
// else the HD address derived from the account xpub; the scheme is recorded with them (migration 0042). The Solana
// address needs the seed, so the signer derives it and it is written once, the first time a Solana pair is chosen
// (migration 0033).
import { depositSalt } from '../../domain/addresses/depositSalt';
import { depositScheme, evmForwarderAddress, tronForwarderAddress, type DepositForwarders } from '../../domain/addresses/depositForwarder';
import { isSolanaAddress } from '../../domain/addresses/solana';
import type { EvmAddress } from '../../domain/addresses/evm';
import type { Sql } from '../../db/client';
import type { SessionRecord } from '../../domain/session';
import { deriveEvmAddress, deriveTronAddress, type DepositXpubs } from './derive';

export type SessionDepositAddresses = { index: number; evm: EvmAddress; tron: string; solana: string | null };

/** Public material only: the signer alone holds the seeds, and a forwarder address has no key at all. */
export type DepositAddressSources = { depositXpubs: DepositXpubs; depositForwarders: DepositForwarders };

export class DepositXpubsMissingError extends Error {
  override name = 'DepositXpubsMissingError';
}

type Row = { derivation_index: number; evm_address: EvmAddress; tron_address: string; solana_address: string | null };

const fromRow = (row: Row): SessionDepositAddresses => ({ index: row.derivation_index, evm: row.evm_address, tron: row.tron_address, solana: row.solana_address });

/** The session's addresses, reserving its index (and writing its EVM and Tron addresses) the first time. */
export async function reserveSessionDepositAddresses(tx: Sql, sources: DepositAddressSources, record: SessionRecord): Promise<SessionDepositAddresses> {
  const [existing] = await tx<Row[]>`
    select derivation_index::int, evm_address, tron_address, solana_address from deposit_addresses where session_id = ${record.sessionId}`;
  if (existing) return fromRow(existing);
  const forwarders = sources.depositForwarders[record.mode];
  const modeXpubs = sources.depositXpubs[record.mode];
  if ((!forwarders.evm || !forwarders.tron) && !modeXpubs) {
    const suffix = record.mode.toUpperCase();
    throw new DepositXpubsMissingError(
      `${record.mode} deposit addresses need DEPOSIT_XPUB_EVM_${suffix} and DEPOSIT_XPUB_TRON_${suffix} (npm run signer -- --print-xpubs prints them)`,
    );
  }
  const sequence = record.mode === 'live' ? 'deposit_address_index_seq' : 'deposit_address_test_index_seq';
  const [{ index }] = (await tx`select nextval(${sequence})::int as index`) as unknown as [{ index: number }];
  const salt = depositSalt(record.sessionId);
  const evm = forwarders.evm ? evmForwarderAddress(forwarders.evm, salt) : deriveEvmAddress({ accountXpub: modeXpubs!.evm }, index);
  const tron = forwarders.tron ? tronForwarderAddress(forwarders.tron, salt) : deriveTronAddress({ accountXpub: modeXpubs!.tron }, index);
  await tx`
    insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address, evm_scheme, evm_factory, tron_scheme, tron_factory)
    values (${record.sessionId}, ${record.mode}, ${index}, ${evm}, ${tron},
            ${depositScheme(forwarders.evm)}, ${forwarders.evm?.factory ?? null}, ${depositScheme(forwarders.tron)}, ${forwarders.tron?.factory ?? null})`;
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
