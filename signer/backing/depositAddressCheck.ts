// The signer's reading of a session's deposit address before anything trusts it as the session's own
// (docs/settlement.md#deposit-addresses-only-the-services-own): the row is the worker's role's to write, so it is
// re-derived from the signer's own seed or configured forwarder contracts (domain/addresses/ownDepositAddress.ts).
import type { Queryable } from '../../db/client';
import type { DepositForwarders } from '../../domain/addresses/depositForwarder';
import type { DepositSeeds } from '../../domain/addresses/depositSeed';
import { judgeOwnDepositAddress, type StoredDepositAddress } from '../../domain/addresses/ownDepositAddress';
import type { ChainFacts } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';

export interface OwnDepositAddressDeps {
  sql: Queryable;
  /** The seeds of the modes this signer holds (signer/worker.ts): HD addresses are derived from them. */
  depositSeeds: DepositSeeds;
  /** EVM_DEPOSIT_FACTORY_* / TRON_DEPOSIT_FACTORY_* with their implementations, as the signer itself was configured. */
  depositForwarders: DepositForwarders;
}

type Family = ChainFacts['family'];

const COLUMNS = {
  evm: { address: 'evm_address', scheme: 'evm_scheme', factory: 'evm_factory' },
  tron: { address: 'tron_address', scheme: 'tron_scheme', factory: 'tron_factory' },
  solana: { address: 'solana_address', scheme: undefined, factory: undefined },
} as const;

/** The session's row for `family`, as stored; undefined when the session has none. */
async function storedDepositAddress(sql: Queryable, sessionId: string, family: Family): Promise<StoredDepositAddress | undefined> {
  const columns = COLUMNS[family];
  const [row] = await sql<Array<{ mode: Mode; derivationIndex: string; address: string | null; scheme: string; factory: string | null }>>`
    select mode, derivation_index::text as "derivationIndex", ${sql(columns.address)} as address,
           ${columns.scheme ? sql(columns.scheme) : sql`'hd'`} as scheme, ${columns.factory ? sql(columns.factory) : sql`null`} as factory
    from deposit_addresses where session_id = ${sessionId}`;
  if (!row) return undefined;
  return {
    sessionId,
    mode: row.mode,
    family,
    derivationIndex: Number(row.derivationIndex),
    address: row.address,
    scheme: row.scheme === 'forwarder' ? 'forwarder' : 'hd',
    factory: row.factory,
  };
}

/** Why the session's `family` deposit address is not the service's own, or undefined when it is. */
export async function foreignDepositAddressReason(
  deps: OwnDepositAddressDeps,
  session: { sessionId: string; mode: Mode },
  family: Family,
): Promise<string | undefined> {
  const { sessionId } = session;
  const row = await storedDepositAddress(deps.sql, sessionId, family);
  if (!row) return `session ${sessionId} has no deposit addresses`;
  const verdict = judgeOwnDepositAddress(row, session.mode, {
    seed: deps.depositSeeds[row.mode],
    forwarders: deps.depositForwarders[row.mode],
  });
  return verdict.kind === 'refused' ? verdict.reason : undefined;
}
