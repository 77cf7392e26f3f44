/**
 * Deposit address derivation: one index per session (from a Postgres sequence) gives one address per
 * chain family. EVM and Tron use BIP-44 over secp256k1, which allows non-hardened public derivation, so
 * the api and indexers can work from the account-level xpubs alone; Solana uses SLIP-0010 ed25519, which
 * is hardened-only and therefore always needs the seed.
 */
import { HDKey } from '@scure/bip32';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { evmAddressFromPoint, evmAddressFromPublicKey } from './evm';
import type { EvmAddress, Secp256k1Point } from './evm';
import { tronAddressFromEvmHex } from './tron';
import { solanaAddressFromPublicKey } from './solana';
import type { Mode } from '../wire/session';

/** Account-level paths whose xpubs are handed to public-only components; the address index is their child. */
export const EVM_ACCOUNT_PATH = "m/44'/60'/0'/0";
export const TRON_ACCOUNT_PATH = "m/44'/195'/0'/0";

const HARDENED_OFFSET = 0x8000_0000;
const ACCOUNT_XPUB_DEPTH = 4;
const SOLANA_PURPOSE = 44;
const SOLANA_COIN_TYPE = 501;
const ED25519_SEED_KEY = utf8ToBytes('ed25519 seed');

export type DepositAddresses = { evm: EvmAddress; tron: string; solana: string };
export type AccountXpubs = { evm: string; tron: string };
/** What the main worker derives EVM and Tron deposit addresses from; a mode without xpubs cannot take those pairs. */
export type DepositXpubs = Record<Mode, AccountXpubs | undefined>;

/** Either the BIP-39 seed (full private derivation) or the account-level xpub for that chain family. */
export type Secp256k1KeySource = { seed: Uint8Array } | { accountXpub: string };

export class InvalidAccountXpubError extends Error {
  override name = 'InvalidAccountXpubError';
}

/** Every BIP-32/SLIP-0010 index is below 2^31 before hardening; beyond that a hardened and a plain index would collide. */
function assertIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED_OFFSET) {
    throw new RangeError(`derivation index must be an integer in [0, 2^31), got ${index}`);
  }
}

function accountXpub(seed: Uint8Array, accountPath: string): string {
  return HDKey.fromMasterSeed(seed).derive(accountPath).publicExtendedKey;
}

export function accountXpubsFromSeed(seed: Uint8Array): AccountXpubs {
  return { evm: accountXpub(seed, EVM_ACCOUNT_PATH), tron: accountXpub(seed, TRON_ACCOUNT_PATH) };
}

/** The public half of seeds the signer holds, for a worker run beside it (npm start, the tests, the signer's --print-xpubs). */
export function depositXpubsFromSeeds(seeds: Record<Mode, Uint8Array | undefined>): DepositXpubs {
  return { test: seeds.test && accountXpubsFromSeed(seeds.test), live: seeds.live && accountXpubsFromSeed(seeds.live) };
}

export function parseAccountXpub(xpub: string): HDKey {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub);
  } catch (cause) {
    throw new InvalidAccountXpubError('not a valid BIP-32 extended public key', { cause });
  }
  // Public-only components must never be handed private material, even by mistake.
  if (key.privateKey !== null) throw new InvalidAccountXpubError('expected an extended public key, got a private one');
  // An xpub from another level still derives valid-looking addresses, just not the ones the seed holder can spend.
  if (key.depth !== ACCOUNT_XPUB_DEPTH) {
    throw new InvalidAccountXpubError(`expected an account-level xpub (depth ${ACCOUNT_XPUB_DEPTH}), got depth ${key.depth}`);
  }
  return key;
}

/** An account xpub as public derivation uses it: its point parsed once, beside the bytes BIP-32's HMAC takes. */
type AccountNode = { point: Secp256k1Point; publicKey: Uint8Array; chainCode: Uint8Array };

/**
 * Parsed account xpubs by their text. Parsing checks the base58 checksum and the key's point on the curve (a square
 * root), close to the cost of the child derivation itself, and a worker derives every session's addresses from the
 * same few xpubs. Bounded all the same, so a process handed many xpubs (a test run) never grows it without end.
 */
const parsedAccountXpubs = new Map<string, AccountNode>();
const PARSED_ACCOUNT_XPUBS_KEPT = 16;

function accountNode(xpub: string): AccountNode {
  const cached = parsedAccountXpubs.get(xpub);
  if (cached) return cached;
  const { publicKey, chainCode } = parseAccountXpub(xpub);
  if (publicKey === null || chainCode === null) throw new InvalidAccountXpubError('extended public key without a key or chain code');
  const node = { point: secp256k1.Point.fromBytes(publicKey), publicKey, chainCode };
  if (parsedAccountXpubs.size >= PARSED_ACCOUNT_XPUBS_KEPT) parsedAccountXpubs.clear();
  parsedAccountXpubs.set(xpub, node);
  return node;
}

/**
 * G, apart from noble's own BASE so that a wider precomputed window (8 bits, noble's is 6) serves these derivations
 * without changing how anything else in the process multiplies: about 15 % off each derivation, for a table of about
 * 0.8 MB built by the first one.
 */
const DERIVATION_BASE = secp256k1.Point.fromAffine(secp256k1.Point.BASE.toAffine()).precompute(8);
const { Fn } = secp256k1.Point;

/** BIP-32's I = HMAC-SHA512(chain code, serP(parent) ‖ ser32(index)) for a non-hardened index. */
function childHmac(parent: AccountNode, index: number): Uint8Array {
  const data = new Uint8Array(parent.publicKey.length + 4);
  data.set(parent.publicKey);
  new DataView(data.buffer).setUint32(parent.publicKey.length, index, false);
  return hmac(sha512, parent.chainCode, data);
}

function publicChildPoint(parent: AccountNode, index: number, hmacOutput = childHmac(parent, index)): Secp256k1Point {
  const tweak = Fn.fromBytes(hmacOutput.subarray(0, 32), true);
  if (Fn.isValid(tweak)) {
    // Not constant-time, unlike HDKey's multiply: the xpub, its chain code and so the tweak are all public.
    const child = parent.point.add(DERIVATION_BASE.multiplyUnsafe(tweak));
    if (!child.is0()) return child;
  }
  if (index >= HARDENED_OFFSET - 1) throw new Error(`BIP-32 public derivation at index ${index} is invalid and has no next index`);
  return publicChildPoint(parent, index + 1);
}

/**
 * BIP-32 CKDpub of an account xpub's non-hardened child: the key @scure/bip32's deriveChild gives, and so the one the
 * signer derives from the seed, without its constant-time multiplication, re-parsed parent and rebuilt HDKey. An index
 * whose parse256(I_L) is not below n, or whose child is the point at infinity, moves on to the next index as scure does.
 * Either has a chance below 2^-127 per index, so no real key meets it: the tests reach it by passing `hmacOutput`, as
 * scure's `_deriveChild(index, I)` lets them.
 */
export function accountChildPoint(accountXpub: string, index: number, hmacOutput?: Uint8Array): Secp256k1Point {
  assertIndex(index);
  return publicChildPoint(accountNode(accountXpub), index, hmacOutput);
}

function secp256k1Address(source: Secp256k1KeySource, accountPath: string, index: number): EvmAddress {
  if ('accountXpub' in source) return evmAddressFromPoint(accountChildPoint(source.accountXpub, index));
  assertIndex(index);
  const key = HDKey.fromMasterSeed(source.seed).derive(`${accountPath}/${index}`);
  if (key.publicKey === null) throw new Error(`BIP-32 derivation at ${accountPath}/${index} produced no public key`);
  return evmAddressFromPublicKey(key.publicKey);
}

/** m/44'/60'/0'/0/{index}; one address serves all six EVM chains. */
export function deriveEvmAddress(source: Secp256k1KeySource, index: number): EvmAddress {
  return secp256k1Address(source, EVM_ACCOUNT_PATH, index);
}

/** m/44'/195'/0'/0/{index}; Tron hashes the key exactly as EVM does and only the encoding differs. */
export function deriveTronAddress(source: Secp256k1KeySource, index: number): string {
  return tronAddressFromEvmHex(secp256k1Address(source, TRON_ACCOUNT_PATH, index));
}

export type Slip10Ed25519Node = { privateKey: Uint8Array; chainCode: Uint8Array; publicKey: Uint8Array };

/**
 * SLIP-0010 for ed25519. Only hardened derivation exists for this curve, so every element of `path` is
 * hardened here and is given without the 2^31 offset.
 */
export function slip10Ed25519(seed: Uint8Array, path: readonly number[]): Slip10Ed25519Node {
  if (seed.length < 16 || seed.length > 64) throw new RangeError(`SLIP-0010 seed must be 16 to 64 bytes, got ${seed.length}`);
  let node = hmac(sha512, ED25519_SEED_KEY, seed);
  for (const index of path) {
    assertIndex(index);
    const data = new Uint8Array(1 + 32 + 4);
    data.set(node.subarray(0, 32), 1);
    new DataView(data.buffer).setUint32(33, index + HARDENED_OFFSET, false);
    node = hmac(sha512, node.subarray(32), data);
  }
  const privateKey = node.slice(0, 32);
  return { privateKey, chainCode: node.slice(32), publicKey: ed25519.getPublicKey(privateKey) };
}

/** m/44'/501'/{index}'/0', the account layout of Phantom, Solflare and `solana-keygen`. */
const solanaDepositNode = (seed: Uint8Array, index: number) => slip10Ed25519(seed, [SOLANA_PURPOSE, SOLANA_COIN_TYPE, index, 0]);

export function deriveSolanaAddress(seed: Uint8Array, index: number): string {
  return solanaAddressFromPublicKey(solanaDepositNode(seed, index).publicKey);
}

/** The deposit address's 64-byte keypair (private ‖ public, as `solana-keygen` stores it): the signer's sweeps sign with it. */
export function deriveSolanaKeyPairBytes(seed: Uint8Array, index: number): Uint8Array {
  const node = solanaDepositNode(seed, index);
  return new Uint8Array([...node.privateKey, ...node.publicKey]);
}

function derivePrivateKey(seed: Uint8Array, accountPath: string, index: number): Uint8Array {
  assertIndex(index);
  const key = HDKey.fromMasterSeed(seed).derive(`${accountPath}/${index}`);
  if (key.privateKey === null) throw new Error(`BIP-32 derivation at ${accountPath}/${index} produced no private key`);
  return key.privateKey;
}

/** The EVM deposit address's private key (m/44'/60'/0'/0/{index}): the signer's HD sweeps sign with it, nothing stores it. */
export function deriveEvmPrivateKey(seed: Uint8Array, index: number): Uint8Array {
  return derivePrivateKey(seed, EVM_ACCOUNT_PATH, index);
}

/** The Tron deposit address's private key (m/44'/195'/0'/0/{index}): the signer's Tron HD sweeps sign with it, nothing stores it. */
export function deriveTronPrivateKey(seed: Uint8Array, index: number): Uint8Array {
  return derivePrivateKey(seed, TRON_ACCOUNT_PATH, index);
}

export function deriveDepositAddresses(seed: Uint8Array, index: number): DepositAddresses {
  return {
    evm: deriveEvmAddress({ seed }, index),
    tron: deriveTronAddress({ seed }, index),
    solana: deriveSolanaAddress(seed, index),
  };
}
