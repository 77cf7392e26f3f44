// The deposit-forwarder contracts per mode and chain family: EVM_DEPOSIT_FACTORY_<MODE> with
// EVM_DEPOSIT_FORWARDER_<MODE>, TRON_DEPOSIT_FACTORY_<MODE> with TRON_DEPOSIT_FORWARDER_<MODE>. Both of a pair or
// neither: a factory alone would give addresses whose clones delegate to an unknown implementation. A family
// without its pair keeps HD deposit addresses. Public material only, so any process may read them.
import { InvalidEvmAddressError, toChecksumEvmAddress, type EvmAddress } from '../domain/addresses/evm';
import type { DepositForwarders, ForwarderContracts } from '../domain/addresses/depositForwarder';
import { InvalidTronAddressError, isTronAddress, tronAddressFromHex, tronAddressToHex } from '../domain/addresses/tron';
import type { Mode } from '../domain/wire/session';

const MODES = ['test', 'live'] as const;
const SUFFIX = { test: 'TEST', live: 'LIVE' } as const;
const FAMILIES = ['EVM', 'TRON'] as const;
type Family = (typeof FAMILIES)[number];

export type ForwarderEnv = Partial<Record<`${Family}_DEPOSIT_${'FACTORY' | 'FORWARDER'}_${'TEST' | 'LIVE'}`, string>>;

type Issue = { path: string[]; message: string };

const EVM_ZERO = /^0x0{40}$/i;
const TRON_ZERO = /^410{40}$/;

/** EIP-55 checksummed or all-lowercase hex; stored checksummed. */
function evmAddress(value: string): EvmAddress {
  if (EVM_ZERO.test(value)) throw new InvalidEvmAddressError('is the zero address');
  try {
    return toChecksumEvmAddress(value);
  } catch (error) {
    if (error instanceof InvalidEvmAddressError)
      throw new InvalidEvmAddressError('is not an EVM address (0x and 40 hex digits, lowercase or with a correct EIP-55 checksum)');
    throw error;
  }
}

/** Base58check `T…` or 41-prefixed hex, as TronScan and the node API show them; stored as `T…`. */
function tronAddress(value: string): string {
  const hex = isTronAddress(value) ? tronAddressToHex(value) : /^41[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : undefined;
  if (hex === undefined) throw new InvalidTronAddressError('is not a Tron address (base58check T… or 41 followed by 40 hex digits)');
  if (TRON_ZERO.test(hex)) throw new InvalidTronAddressError('is the zero address');
  return tronAddressFromHex(hex);
}

const PARSE = { EVM: evmAddress, TRON: tronAddress } as const;

function pairNames(family: Family, mode: Mode) {
  return { factory: `${family}_DEPOSIT_FACTORY_${SUFFIX[mode]}`, forwarder: `${family}_DEPOSIT_FORWARDER_${SUFFIX[mode]}` } as const;
}

function readPair<F extends Family>(
  env: ForwarderEnv,
  family: F,
  mode: Mode,
): { contracts: ForwarderContracts<ReturnType<(typeof PARSE)[F]>> | undefined; issues: Issue[] } {
  type Address = ReturnType<(typeof PARSE)[F]>;
  const names = pairNames(family, mode);
  const given = { factory: env[names.factory]?.trim() || undefined, forwarder: env[names.forwarder]?.trim() || undefined };
  if (!given.factory && !given.forwarder) return { contracts: undefined, issues: [] };
  if (!given.factory || !given.forwarder) {
    const [missing, present] = given.factory ? [names.forwarder, names.factory] : [names.factory, names.forwarder];
    return { contracts: undefined, issues: [{ path: [missing], message: `is needed with ${present}: set both of a pair or neither` }] };
  }
  const issues: Issue[] = [];
  const parsed: Partial<Record<'factory' | 'forwarder', Address>> = {};
  for (const role of ['factory', 'forwarder'] as const) {
    try {
      parsed[role] = PARSE[family](given[role]!) as Address;
    } catch (error) {
      if (!(error instanceof InvalidEvmAddressError || error instanceof InvalidTronAddressError)) throw error;
      issues.push({ path: [names[role]], message: error.message });
    }
  }
  if (!parsed.factory || !parsed.forwarder) return { contracts: undefined, issues };
  if (parsed.factory === parsed.forwarder) {
    return {
      contracts: undefined,
      issues: [
        {
          path: [names.forwarder],
          message: `must differ from ${names.factory}: the forwarder is the implementation the factory's clones delegate to`,
        },
      ],
    };
  }
  return { contracts: { factory: parsed.factory, implementation: parsed.forwarder }, issues: [] };
}

export function depositForwarderIssues(env: ForwarderEnv): Issue[] {
  return MODES.flatMap((mode) => FAMILIES.flatMap((family) => readPair(env, family, mode).issues));
}

/** Call once the issues are known to be none. */
export function depositForwardersFromEnv(env: ForwarderEnv): DepositForwarders {
  const forMode = (mode: Mode) => ({ evm: readPair(env, 'EVM', mode).contracts, tron: readPair(env, 'TRON', mode).contracts });
  return { test: forMode('test'), live: forMode('live') };
}
