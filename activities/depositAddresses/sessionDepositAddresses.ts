// A session's deposit addresses: one derivation index per session, from its mode's Postgres sequence, kept for every
// later choice of token or chain. When it reserves the index the worker writes the EVM and Tron
// addresses: the session's forwarder clone where the mode has a factory for that family (computed offline, no key),
// else the HD address derived from the account xpub; the scheme is recorded with them (db/migrations/0001_baseline.sql). The Solana
// address needs the seed: the signer derived it ahead into the pool (solanaAddressPool.ts), or derives it for the
// session's index, and it is written once, the first time a Solana pair is chosen (db/migrations/0001_baseline.sql).
import { depositSalt } from '../../domain/addresses/depositSalt';
import { depositScheme, evmForwarderAddress, tronForwarderAddress, type DepositForwarders } from '../../domain/addresses/depositForwarder';
import type { EvmAddress } from '../../domain/addresses/evm';
import type { Queryable } from '../../db/client';
import { insertDepositAddresses, setSolanaDepositAddress, storedOrReservedDepositIndex } from '../../db/repositories/depositAddresses';
import type { SessionRecord } from '../../domain/wire/session';
import { deriveEvmAddress, deriveTronAddress, type AccountXpubs, type DepositXpubs } from '../../domain/addresses/hdDerivation';
import { judgeLiveXpubs } from '../../domain/addresses/xpubFingerprint';
import { publishedXpubFingerprint } from '../../db/repositories/signerFingerprints';

/**
 * The session's addresses as stored, or (`reserved`) its index just taken from the sequence with the EVM and Tron
 * addresses computed for it, to be stored by sessionDepositAddressWrites in the caller's transaction.
 */
export type SessionDepositAddresses = {
  index: number;
  evm: EvmAddress;
  tron: string;
  solana: string | null;
  /** The signer's derivation for the index, made ahead; null when the pool has not reached it. */
  pooledSolana: string | null;
  reserved: boolean;
};

/**
 * Public material only: the signer alone holds the seeds, and a forwarder address has no key at all. With
 * `checkLiveSignerFingerprint`, live xpubs derive an address only while they are the live signer's.
 */
export type DepositAddressSources = {
  depositXpubs: DepositXpubs;
  depositForwarders: DepositForwarders;
  checkLiveSignerFingerprint?: boolean;
};

export class DepositXpubsMissingError extends Error {
  override name = 'DepositXpubsMissingError';
}

/** The live xpubs are not (or not yet known to be) the live signer's: no live HD address is handed out. */
export class LiveXpubsRefusedError extends Error {
  override name = 'LiveXpubsRefusedError';
}

/** Before a live index gets HD addresses: refused unless the live signer published the xpubs' own fingerprint. */
async function requireLiveSignerXpubs(sql: Queryable, xpubs: AccountXpubs): Promise<void> {
  const judgement = judgeLiveXpubs(xpubs, await publishedXpubFingerprint(sql, 'live'));
  if (judgement.verdict !== 'matches') throw new LiveXpubsRefusedError(judgement.reason);
}

const canReserve = (sources: DepositAddressSources, record: SessionRecord) => {
  const forwarders = sources.depositForwarders[record.mode];
  return (forwarders.evm !== undefined && forwarders.tron !== undefined) || sources.depositXpubs[record.mode] !== undefined;
};

/**
 * One statement: the stored addresses, else a new index from the mode's sequence (taken only when the session has
 * none), with the pooled Solana address for whichever index it is. A reservation whose transaction is later rolled
 * back leaves a gap in the sequence, as any sequence does.
 */
export async function lookUpSessionDepositAddresses(
  sql: Queryable,
  sources: DepositAddressSources,
  record: SessionRecord,
): Promise<SessionDepositAddresses> {
  const reservable = canReserve(sources, record);
  const row = await storedOrReservedDepositIndex(sql, record.sessionId, record.mode, reservable);
  if (!row) {
    const suffix = record.mode.toUpperCase();
    throw new DepositXpubsMissingError(
      `${record.mode} deposit addresses need DEPOSIT_XPUB_EVM_${suffix} and DEPOSIT_XPUB_TRON_${suffix} (npm run signer -- --print-xpubs prints them)`,
    );
  }
  const stored = { index: row.index, solana: row.solana_address, pooledSolana: row.pooled_solana, reserved: row.reserved };
  if (!row.reserved) return { ...stored, evm: row.evm_address as EvmAddress, tron: row.tron_address as string };
  const forwarders = sources.depositForwarders[record.mode];
  const modeXpubs = sources.depositXpubs[record.mode];
  const derivesHd = !forwarders.evm || !forwarders.tron;
  if (record.mode === 'live' && sources.checkLiveSignerFingerprint && derivesHd) await requireLiveSignerXpubs(sql, modeXpubs!);
  const salt = depositSalt(record.sessionId);
  return {
    ...stored,
    evm: forwarders.evm ? evmForwarderAddress(forwarders.evm, salt) : deriveEvmAddress({ accountXpub: modeXpubs!.evm }, row.index),
    tron: forwarders.tron ? tronForwarderAddress(forwarders.tron, salt) : deriveTronAddress({ accountXpub: modeXpubs!.tron }, row.index),
  };
}

/**
 * Stores a reserved index's addresses (and the Solana one, when chosen now). A plain insert: should another attempt
 * have stored the session's row meanwhile, this one fails and its retry reads that row, so a session never has two.
 */
function insertSessionDepositAddresses(
  sql: Queryable,
  sources: DepositAddressSources,
  record: SessionRecord,
  addresses: SessionDepositAddresses,
  solana: string | null,
) {
  const forwarders = sources.depositForwarders[record.mode];
  return insertDepositAddresses(sql, {
    sessionId: record.sessionId,
    mode: record.mode,
    index: addresses.index,
    evm: addresses.evm,
    tron: addresses.tron,
    solana,
    evmScheme: depositScheme(forwarders.evm),
    evmFactory: forwarders.evm?.factory ?? null,
    tronScheme: depositScheme(forwarders.tron),
    tronFactory: forwarders.tron?.factory ?? null,
  });
}

/** What stores the addresses lookUpSessionDepositAddresses found missing: one statement at most, or none. */
export function sessionDepositAddressWrites(
  sql: Queryable,
  sources: DepositAddressSources,
  record: SessionRecord,
  addresses: SessionDepositAddresses,
  solana: string | null,
) {
  if (addresses.reserved) return [insertSessionDepositAddresses(sql, sources, record, addresses, solana)];
  return solana !== null && addresses.solana === null ? [setSolanaDepositAddress(sql, record.sessionId, solana)] : [];
}
