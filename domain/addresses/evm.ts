/** EVM address format (EIP-55), shared by the six EVM chains of docs/api.md#chains-and-tokens. */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { getAddress, isAddress } from 'viem';

export type EvmAddress = `0x${string}`;

export class InvalidEvmAddressError extends Error {
  override name = 'InvalidEvmAddressError';
}

/**
 * All-lowercase hex is accepted as unchecksummed; mixed case must carry a correct EIP-55 checksum, so a
 * mistyped character in a checksummed address is caught rather than silently becoming another address.
 */
export function isEvmAddress(value: string): value is EvmAddress {
  return isAddress(value, { strict: true });
}

/** The canonical (EIP-55) spelling, which is how the service stores and shows EVM addresses. */
export function toChecksumEvmAddress(value: string): EvmAddress {
  if (!isEvmAddress(value)) throw new InvalidEvmAddressError(`not an EVM address: ${JSON.stringify(value)}`);
  return getAddress(value);
}

export type Secp256k1Point = InstanceType<typeof secp256k1.Point>;

/** Last 20 bytes of keccak256 over the uncompressed point without its 0x04 tag. */
export function evmAddressFromPoint(point: Secp256k1Point): EvmAddress {
  const hash = keccak_256(point.toBytes(false).subarray(1));
  return getAddress(`0x${bytesToHex(hash.subarray(12))}`);
}

/** Compressed and uncompressed encodings alike; parsing checks the key is on the curve. */
export function evmAddressFromPublicKey(publicKey: Uint8Array): EvmAddress {
  return evmAddressFromPoint(secp256k1.Point.fromBytes(publicKey));
}
