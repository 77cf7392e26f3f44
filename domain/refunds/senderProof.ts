// Whether a signature over the claim message (./claimMessage.ts) was made by the address that paid
// (docs/refunds.md#proof-of-ownership), in the way that chain's wallets sign text: EIP-191 personal_sign on EVM chains,
// ed25519 over the UTF-8 bytes on Solana (wallets' signMessage), TIP-191 signMessageV2 on Tron. A malformed signature
// is no proof, never an error.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { verifyMessage } from 'viem';
import { tronAddressFromEvmHex } from '../addresses/tron';
import { CHAIN_FACTS, type Chain } from '../chains/chains';

export interface SenderProof {
  /** The chain the payment came from, and the address it came from there. */
  chain: Chain;
  sender: string;
  message: string;
  signature: string;
}

const HEX = /^(0x)?([0-9a-fA-F]*)$/;

function hexBytes(value: string): Uint8Array | undefined {
  const digits = HEX.exec(value.trim())?.[2];
  return digits !== undefined && digits.length % 2 === 0 && digits.length > 0 ? hexToBytes(digits) : undefined;
}

async function verifyEvm(sender: string, message: string, signature: string): Promise<boolean> {
  const bytes = hexBytes(signature);
  if (!bytes || bytes.length !== 65) return false;
  try {
    return await verifyMessage({ address: sender as `0x${string}`, message, signature: `0x${bytesToHex(bytes)}` });
  } catch {
    return false;
  }
}

/** Wallets hand the 64-byte signature back as bytes; people paste it as base58 (Solana's usual text form) or hex. */
function solanaSignatureBytes(signature: string): Uint8Array | undefined {
  const hex = hexBytes(signature);
  if (hex?.length === 64) return hex;
  try {
    const bytes = base58.decode(signature.trim());
    return bytes.length === 64 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function verifySolana(sender: string, message: string, signature: string): boolean {
  const bytes = solanaSignatureBytes(signature);
  if (!bytes) return false;
  try {
    return ed25519.verify(bytes, utf8ToBytes(message), base58.decode(sender));
  } catch {
    return false;
  }
}

/** signMessageV2's digest: keccak256("\x19TRON Signed Message:\n" + byte length + message). */
export function tronMessageDigest(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19TRON Signed Message:\n${body.length}`), body));
}

function verifyTron(sender: string, message: string, signature: string): boolean {
  const bytes = hexBytes(signature);
  if (!bytes || bytes.length !== 65) return false;
  const v = bytes[64] as number;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return false;
  try {
    const point = secp256k1.Signature.fromBytes(bytes.subarray(0, 64), 'compact')
      .addRecoveryBit(recovery)
      .recoverPublicKey(tronMessageDigest(message));
    const accountId = keccak_256(point.toBytes(false).subarray(1)).subarray(12);
    return tronAddressFromEvmHex(`0x${bytesToHex(accountId)}`) === sender;
  } catch {
    return false;
  }
}

export async function verifySenderProof(proof: SenderProof): Promise<boolean> {
  switch (CHAIN_FACTS[proof.chain].family) {
    case 'evm':
      return verifyEvm(proof.sender, proof.message, proof.signature);
    case 'solana':
      return verifySolana(proof.sender, proof.message, proof.signature);
    case 'tron':
      return verifyTron(proof.sender, proof.message, proof.signature);
  }
}
