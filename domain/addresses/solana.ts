/** Solana address format: an ed25519 public key (or program-derived address) as 32 bytes of base58. */
import { base58 } from '@scure/base';

const PUBLIC_KEY_BYTES = 32;

/**
 * Requires the canonical spelling (decode then re-encode gives the same string), so the same account
 * can never be watched under two different strings.
 */
export function isSolanaAddress(value: string): boolean {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(value);
  } catch {
    return false;
  }
  return bytes.length === PUBLIC_KEY_BYTES && base58.encode(bytes) === value;
}

export function solanaAddressFromPublicKey(publicKey: Uint8Array): string {
  if (publicKey.length !== PUBLIC_KEY_BYTES) {
    throw new RangeError(`an ed25519 public key is ${PUBLIC_KEY_BYTES} bytes, got ${publicKey.length}`);
  }
  return base58.encode(publicKey);
}
