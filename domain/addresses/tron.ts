/**
 * Tron address format, in one place. The same 20-byte account id appears three ways: base58check `T…`
 * (what users and TronGrid's visible=true show), hex `41…` (21 bytes, what the node API returns with
 * visible=false), and EVM-style `0x…` (20 bytes, what TVM logs carry, e.g. TRC-20 Transfer topics).
 */
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { EvmAddress } from './evm';

const TRON_ADDRESS_PREFIX = 0x41;
const ACCOUNT_ID_BYTES = 20;
const base58check = createBase58check(sha256);

const HEX41_PATTERN = /^41[0-9a-fA-F]{40}$/;
const EVM_HEX_PATTERN = /^0x[0-9a-fA-F]{40}$/;

export class InvalidTronAddressError extends Error {
  override name = 'InvalidTronAddressError';
}

function decodeBase58(address: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(address);
  } catch {
    throw new InvalidTronAddressError(`not a base58check string or checksum mismatch: ${JSON.stringify(address)}`);
  }
  if (bytes.length !== ACCOUNT_ID_BYTES + 1 || bytes[0] !== TRON_ADDRESS_PREFIX) {
    throw new InvalidTronAddressError(`not a Tron mainnet address (0x41 + 20 bytes): ${JSON.stringify(address)}`);
  }
  return bytes;
}

function encodeAccountId(accountId: Uint8Array): string {
  const bytes = new Uint8Array(ACCOUNT_ID_BYTES + 1);
  bytes[0] = TRON_ADDRESS_PREFIX;
  bytes.set(accountId, 1);
  return base58check.encode(bytes);
}

/** Base58check `T…` form with a verified checksum and the mainnet 0x41 prefix. */
export function isTronAddress(value: string): boolean {
  try {
    decodeBase58(value);
    return true;
  } catch {
    return false;
  }
}

/** `T…` → `41…` (42 lowercase hex characters, no 0x). */
export function tronAddressToHex(address: string): string {
  return bytesToHex(decodeBase58(address));
}

/** `41…` (either case) → `T…`. */
export function tronAddressFromHex(hex: string): string {
  if (!HEX41_PATTERN.test(hex)) throw new InvalidTronAddressError(`not a 41-prefixed 21-byte hex Tron address: ${JSON.stringify(hex)}`);
  return encodeAccountId(hexToBytes(hex.slice(2)));
}

/** `T…` → `0x…` (20 bytes, lowercase) as TVM logs carry it. */
export function tronAddressToEvmHex(address: string): EvmAddress {
  return `0x${bytesToHex(decodeBase58(address).subarray(1))}`;
}

/** `0x…` (20 bytes, any case; Tron has no EIP-55 checksum to verify) → `T…`. */
export function tronAddressFromEvmHex(hex: string): string {
  if (!EVM_HEX_PATTERN.test(hex)) throw new InvalidTronAddressError(`not a 20-byte 0x-prefixed hex account id: ${JSON.stringify(hex)}`);
  return encodeAccountId(hexToBytes(hex.slice(2)));
}
