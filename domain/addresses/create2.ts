/**
 * CREATE2 addresses, computed offline. EVM chains follow EIP-1014; Tron's TVM hashes the same inputs without the
 * 0xff byte and with its 21-byte (0x41-prefixed) account form, so an on-chain helper that hard-codes 0xff predicts
 * wrong Tron addresses and the service computes them here instead.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { getContractAddress, type Hex } from 'viem';
import type { EvmAddress } from './evm';

const TRON_ADDRESS_PREFIX = 0x41;
const TRON_ADDRESS_BYTES = 21;

/** keccak256(0xff ‖ deployer ‖ salt ‖ keccak256(initCode))[12:], EIP-55 spelled. */
export function evmCreate2Address(deployer: EvmAddress, salt: Hex, initCode: Hex): EvmAddress {
  return getContractAddress({ opcode: 'CREATE2', from: deployer, salt, bytecode: initCode });
}

/**
 * java-tron's `WalletUtil.generateContractAddress2`: sha3omit12(deployer ‖ salt ‖ keccak256(code)), i.e. the last
 * 21 bytes of the digest with the first set to 0x41. The TVM passes the deployer in its 21-byte form (0x41 ‖ 20
 * bytes); the function itself concatenates whatever it is given, which its published unit test relies on.
 */
export function tronCreate2AddressBytes(deployer: Uint8Array, salt: Uint8Array, code: Uint8Array): Uint8Array {
  const digest = keccak_256(new Uint8Array([...deployer, ...salt, ...keccak_256(code)]));
  const address = digest.slice(digest.length - TRON_ADDRESS_BYTES);
  address[0] = TRON_ADDRESS_PREFIX;
  return address;
}
