import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { numberToBytesBE } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import {
  accountChildPoint,
  accountXpubsFromSeed,
  deriveEvmAddress,
  deriveTronAddress,
  EVM_ACCOUNT_PATH,
  TRON_ACCOUNT_PATH,
} from '../../../domain/addresses/hdDerivation';
import { depositSeed } from '../../../domain/addresses/depositSeed';
import { evmAddressFromPublicKey } from '../../../domain/addresses/evm';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';

const seed = depositSeed({ mode: 'test' });
const xpubs = accountXpubsFromSeed(seed);
const N = secp256k1.Point.Fn.ORDER;
const LAST_INDEX = 2 ** 31 - 1;
const INDEXES = [...Array.from({ length: 200 }, (_, index) => index), 65_535, 1_000_000, 2 ** 30, LAST_INDEX - 1, LAST_INDEX];

const hex = (point: ReturnType<typeof accountChildPoint>) => bytesToHex(point.toBytes(true));
const scureChild = (xpub: string, index: number) => HDKey.fromExtendedKey(xpub).deriveChild(index).publicKey!;
/** scure's test seam: the child at `index` as if HMAC-SHA512 had given `I`. */
const scureChildWithI = (xpub: string, index: number, I: Uint8Array): HDKey =>
  (HDKey.fromExtendedKey(xpub) as unknown as { _deriveChild(index: number, I: Uint8Array): HDKey })._deriveChild(index, I);
/** An HMAC output whose I_L is `tweak`; the chain code half plays no part in the child key. */
const I = (tweak: bigint) => concatBytes(numberToBytesBE(tweak, 32), new Uint8Array(32).fill(7));

describe('public derivation from an account xpub', () => {
  it('gives the child key of @scure/bip32 and the address of the seed path, EVM and Tron alike', () => {
    for (const index of INDEXES) {
      const evmKey = scureChild(xpubs.evm, index);
      const tronKey = scureChild(xpubs.tron, index);
      expect(hex(accountChildPoint(xpubs.evm, index))).toBe(bytesToHex(evmKey));
      expect(hex(accountChildPoint(xpubs.tron, index))).toBe(bytesToHex(tronKey));
      expect(deriveEvmAddress({ accountXpub: xpubs.evm }, index)).toBe(evmAddressFromPublicKey(evmKey));
      expect(deriveTronAddress({ accountXpub: xpubs.tron }, index)).toBe(tronAddressFromEvmHex(evmAddressFromPublicKey(tronKey)));
    }
    for (const index of [0, 1, 199, LAST_INDEX]) {
      expect(deriveEvmAddress({ accountXpub: xpubs.evm }, index)).toBe(deriveEvmAddress({ seed }, index));
      expect(deriveTronAddress({ accountXpub: xpubs.tron }, index)).toBe(deriveTronAddress({ seed }, index));
    }
  });

  // bitcoin/bips bip-0032.mediawiki, "Test Vectors": the depth-4 nodes whose next step is non-hardened.
  const base58check = createBase58check(sha256);
  const serializedKey = (xpub: string) => bytesToHex(base58check.decode(xpub).subarray(45));
  it.each([
    [
      'vector 1, m/0H/1/2H/2 → /1000000000',
      'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
      1_000_000_000,
      'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
    ],
    [
      'vector 2, m/0/2147483647H/1/2147483646H → /2',
      'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL',
      2,
      'xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt',
    ],
  ] as const)('BIP-32 %s', (_chain, parent, index, child) => {
    expect(hex(accountChildPoint(parent, index))).toBe(serializedKey(child));
  });
});

describe('an index BIP-32 declares invalid moves on to the next, as @scure/bip32 does', () => {
  const accountPrivateKey = (path: string) => secp256k1.Point.Fn.fromBytes(HDKey.fromMasterSeed(seed).derive(path).privateKey!);
  const cases = [
    ['parse256(I_L) = n', xpubs.evm, () => N],
    ['parse256(I_L) = 2^256 - 1', xpubs.tron, () => 2n ** 256n - 1n],
    // The tweak that cancels the parent key: the child is the point at infinity.
    ['parent + G·I_L = ∞ (EVM)', xpubs.evm, () => N - accountPrivateKey(EVM_ACCOUNT_PATH)],
    ['parent + G·I_L = ∞ (Tron)', xpubs.tron, () => N - accountPrivateKey(TRON_ACCOUNT_PATH)],
  ] as const;

  it.each(cases)('%s', (_case, xpub, tweak) => {
    const forced = I(tweak());
    expect(hex(accountChildPoint(xpub, 41, forced))).toBe(bytesToHex(scureChild(xpub, 42)));
    expect(hex(accountChildPoint(xpub, 41, forced))).toBe(bytesToHex(scureChildWithI(xpub, 41, forced).publicKey!));
  });

  it.each(cases)('%s at the last non-hardened index has no next index, and is refused', (_case, xpub, tweak) => {
    const forced = I(tweak());
    expect(() => scureChildWithI(xpub, LAST_INDEX, forced)).toThrow();
    expect(() => accountChildPoint(xpub, LAST_INDEX, forced)).toThrow(/no next index/);
  });

  it('I_L = 0 is valid: the child is the parent key itself', () => {
    const forced = I(0n);
    const parentKey = bytesToHex(HDKey.fromExtendedKey(xpubs.evm).publicKey!);
    expect(hex(accountChildPoint(xpubs.evm, 41, forced))).toBe(parentKey);
    expect(bytesToHex(scureChildWithI(xpubs.evm, 41, forced).publicKey!)).toBe(parentKey);
  });
});
