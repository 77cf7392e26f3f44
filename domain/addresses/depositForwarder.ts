/**
 * Smart deposit addresses: a session's EVM and Tron deposit address is the CREATE2 address of an EIP-1167 clone of
 * `DepositForwarder`, deployed by `DepositFactory` with the session's salt when it is first swept. Nobody holds a
 * key for it; only the factory's sweepers can move its funds, and only to the factory's collector. The factory and
 * implementation sit at the same address on every EVM chain, so one address serves all six, as an HD address did.
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { Hex } from 'viem';
import { evmCreate2Address, tronCreate2AddressBytes } from './create2';
import type { Mode } from '../wire/session';
import type { EvmAddress } from './evm';
import { minimalProxyInitCode } from './minimalProxy';
import { tronAddressFromHex, tronAddressToEvmHex, tronAddressToHex } from './tron';

/** A deployed factory and the implementation its clones delegate to, as one chain family spells addresses. */
export type ForwarderContracts<Address extends string> = { factory: Address; implementation: Address };
export type EvmForwarderContracts = ForwarderContracts<EvmAddress>;
/** Base58check `T…` addresses. */
export type TronForwarderContracts = ForwarderContracts<string>;

/** Per family, the contracts new sessions' addresses come from; unset: that family keeps HD addresses. */
export type ModeDepositForwarders = { evm: EvmForwarderContracts | undefined; tron: TronForwarderContracts | undefined };
export type DepositForwarders = Record<Mode, ModeDepositForwarders>;

export const NO_DEPOSIT_FORWARDERS: DepositForwarders = {
  test: { evm: undefined, tron: undefined },
  live: { evm: undefined, tron: undefined },
};

/** How a deposit address's funds are moved: by its key's holder (HD) or by the factory that deploys its clone. */
export type DepositScheme = 'hd' | 'forwarder';

export const depositScheme = (contracts: ForwarderContracts<string> | undefined): DepositScheme => (contracts ? 'forwarder' : 'hd');

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** CREATE2 takes a 32-byte word; viem would pad a shorter salt where the contract's bytes32 argument would not match it. */
function assertSalt(salt: Hex): void {
  if (!BYTES32.test(salt)) throw new RangeError(`a CREATE2 salt is 32 bytes of hex, got ${JSON.stringify(salt)}`);
}

/** What `DepositFactory.addressOf(salt)` returns on any EVM chain. */
export function evmForwarderAddress(contracts: EvmForwarderContracts, salt: Hex): EvmAddress {
  assertSalt(salt);
  return evmCreate2Address(contracts.factory, salt, minimalProxyInitCode(contracts.implementation));
}

/** The clone's address in TVM: the factory in its 21-byte form deploys it; inside the VM the implementation is 20 bytes. */
export function tronForwarderAddress(contracts: TronForwarderContracts, salt: Hex): string {
  assertSalt(salt);
  const initCode = minimalProxyInitCode(tronAddressToEvmHex(contracts.implementation));
  const address = tronCreate2AddressBytes(
    hexToBytes(tronAddressToHex(contracts.factory)),
    hexToBytes(salt.slice(2)),
    hexToBytes(initCode.slice(2)),
  );
  return tronAddressFromHex(bytesToHex(address));
}
