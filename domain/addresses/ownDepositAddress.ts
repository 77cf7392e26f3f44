/**
 * Whether a session's stored deposit address is one the signer's own material gives its row
 * (docs/settlement.md#deposit-addresses-only-the-services-own). The worker's role writes `deposit_addresses`, so a row
 * it wrote with a third party's address, or a forwarder row naming a factory of its choosing, would make that address
 * "the session's own" to every check that reads it; re-deriving it here from what only the signer holds (the mode's
 * seed) or was itself configured with (the mode's factory and implementation) leaves the row nothing to assert.
 */
import { depositSalt } from './depositSalt';
import { evmForwarderAddress, tronForwarderAddress, type ModeDepositForwarders } from './depositForwarder';
import { deriveEvmAddress, deriveSolanaAddress, deriveTronAddress } from './hdDerivation';
import type { ChainFacts } from '../chains/chains';
import type { Mode } from '../wire/session';

type ChainFamily = ChainFacts['family'];

/** A session's row as stored, for one chain family. */
export interface StoredDepositAddress {
  sessionId: string;
  mode: Mode;
  family: ChainFamily;
  derivationIndex: number;
  address: string | null;
  /** Solana addresses are always HD. */
  scheme: 'hd' | 'forwarder';
  factory: string | null;
}

/** The signer's material for the row's mode: the seed it holds (none for a mode it does not sign) and its configured forwarders. */
export interface OwnAddressMaterial {
  seed: Uint8Array | undefined;
  forwarders: ModeDepositForwarders;
}

export type OwnDepositAddressVerdict = { kind: 'own' } | { kind: 'refused'; reason: string };

/** EVM addresses are stored EIP-55 spelled by the worker, but any spelling names the same account. */
const sameAddress = (family: ChainFamily, a: string, b: string) => (family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b);

function expectedAddress(row: StoredDepositAddress, material: OwnAddressMaterial): { address: string } | { refused: string } {
  const { family, mode } = row;
  if (row.scheme === 'forwarder') {
    if (family === 'solana') return { refused: 'a Solana deposit address is never a forwarder' };
    const contracts = material.forwarders[family];
    if (!contracts)
      return { refused: `its ${family} row names factory ${row.factory}, and the signer knows no ${mode} ${family} deposit factory` };
    if (row.factory === null || !sameAddress(family, row.factory, contracts.factory))
      return {
        refused: `its ${family} row names factory ${row.factory}, not the signer's ${mode} ${family} deposit factory ${contracts.factory}`,
      };
    const salt = depositSalt(row.sessionId);
    const evm = family === 'evm' ? material.forwarders.evm : undefined;
    return { address: evm ? evmForwarderAddress(evm, salt) : tronForwarderAddress(contracts, salt) };
  }
  if (!material.seed) return { refused: `the signer holds no ${mode} deposit seed to derive its ${family} address from` };
  const seed = material.seed;
  const index = row.derivationIndex;
  if (family === 'evm') return { address: deriveEvmAddress({ seed }, index) };
  if (family === 'tron') return { address: deriveTronAddress({ seed }, index) };
  return { address: deriveSolanaAddress(seed, index) };
}

/**
 * The stored address must be the one the signer derives for the row's mode, index and scheme, and the row of the
 * session's own mode: each mode's index sequence and seed are its own.
 */
export function judgeOwnDepositAddress(
  row: StoredDepositAddress,
  sessionMode: Mode,
  material: OwnAddressMaterial,
): OwnDepositAddressVerdict {
  const subject = `session ${row.sessionId}'s ${row.mode} ${row.family} deposit address ${row.address ?? '(none)'}`;
  if (row.mode !== sessionMode) return { kind: 'refused', reason: `${subject} is not the service's own: the session is ${sessionMode}` };
  if (row.address === null) return { kind: 'refused', reason: `${subject}: the session has no ${row.family} deposit address` };
  const expected = expectedAddress(row, material);
  if ('refused' in expected) return { kind: 'refused', reason: `${subject} is not the service's own: ${expected.refused}` };
  if (!sameAddress(row.family, row.address, expected.address)) {
    const how =
      row.scheme === 'forwarder'
        ? `the CREATE2 address of the signer's factory with the session's salt is ${expected.address}`
        : `the signer's seed derives ${expected.address} at index ${row.derivationIndex}`;
    return { kind: 'refused', reason: `${subject} is not the service's own: ${how}` };
  }
  return { kind: 'own' };
}
