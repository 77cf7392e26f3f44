// The Tron relayer's key, held in this process only (docs/settlement.md#r4-keys-in-the-signer-alone):
// TRON_RELAYER_KEY_<MODE>, 64 hex digits as TronWeb and wallets export it. It signs a transaction's txID locally;
// nothing but the signature leaves.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { utils as tronUtils } from 'tronweb';
import { tronAddressFromEvmHex, tronAddressToHex } from '../../domain/addresses/tron';

export interface TronRelayer {
  /** base58 `T…`. */
  address: string;
  /** `41…`, as raw_data carries it. */
  hexAddress: string;
  /** The 65-byte signature (r ‖ s ‖ v) of a txID, hex. */
  signTxId(txId: string): string;
}

/** The account of a secp256k1 key: keccak-256 of the uncompressed public key without its 0x04, last 20 bytes, 0x41 first. */
export function tronAddressOfKey(privateKeyHex: string): string {
  const publicKey = secp256k1.getPublicKey(hexToBytes(privateKeyHex), false);
  return tronAddressFromEvmHex(`0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`);
}

export function tronRelayer(privateKeyHex: string): TronRelayer {
  const key = privateKeyHex.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(key) || !secp256k1.utils.isValidSecretKey(hexToBytes(key)))
    throw new Error('the Tron relayer key is not a secp256k1 private key of 64 hex digits');
  const address = tronAddressOfKey(key);
  return {
    address,
    hexAddress: tronAddressToHex(address),
    signTxId: (txId) => tronUtils.crypto.ECKeySign(hexToBytes(txId), hexToBytes(key)).toLowerCase(),
  };
}
