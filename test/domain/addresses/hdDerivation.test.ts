import { describe, expect, it, vi } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  accountXpubsFromSeed,
  EVM_ACCOUNT_PATH,
  deriveDepositAddresses,
  deriveEvmAddress,
  deriveSolanaAddress,
  deriveTronAddress,
  InvalidAccountXpubError,
  slip10Ed25519,
} from '../../../domain/addresses/hdDerivation';
import {
  depositSeed,
  DepositSeedRefusedError,
  DEVELOPMENT_ACCOUNT_XPUBS,
  DEVELOPMENT_MNEMONIC,
} from '../../../domain/addresses/depositSeed';
import { evmAddressFromPublicKey, InvalidEvmAddressError, isEvmAddress, toChecksumEvmAddress } from '../../../domain/addresses/evm';
import { isSolanaAddress, solanaAddressFromPublicKey } from '../../../domain/addresses/solana';
import {
  InvalidTronAddressError,
  isTronAddress,
  tronAddressFromEvmHex,
  tronAddressFromHex,
  tronAddressToEvmHex,
  tronAddressToHex,
} from '../../../domain/addresses/tron';

// Trezor's standard test mnemonic, used by the fixtures of trezor/trezor-firmware (common/tests/fixtures/...).
const TREZOR_ALL_MNEMONIC = 'all all all all all all all all all all all all';
// Going through depositSeed means the published vectors below cover the whole mnemonic → address chain.
const trezorSeed = depositSeed({ mode: 'live', mnemonic: TREZOR_ALL_MNEMONIC });
const devSeed = depositSeed({ mode: 'test' });

describe("EVM deposit addresses (m/44'/60'/0'/0/i)", () => {
  // Hardhat / Anvil default accounts #0..#2 for "test test ... junk" (printed by `anvil` and `npx hardhat node`).
  const HARDHAT_ACCOUNTS = [
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  ];

  it.each(HARDHAT_ACCOUNTS.map((address, index) => [index, address] as const))('index %i from the seed is %s', (index, address) => {
    expect(deriveEvmAddress({ seed: devSeed }, index)).toBe(address);
  });

  it('indexes 0 and 100 match trezor-firmware common/tests/fixtures/ethereum/getaddress.json ("all" mnemonic)', () => {
    expect(deriveEvmAddress({ seed: trezorSeed }, 0)).toBe('0x73d0385F4d8E00C5e6504C6030F47BF6212736A8');
    expect(deriveEvmAddress({ seed: trezorSeed }, 100)).toBe('0x1e6E3708a059aEa1241a81c7aAe84b6CDbC54d59');
    expect(deriveEvmAddress({ accountXpub: accountXpubsFromSeed(trezorSeed).evm }, 100)).toBe('0x1e6E3708a059aEa1241a81c7aAe84b6CDbC54d59');
  });

  it('the account xpub derives the same addresses as the seed', () => {
    const { evm } = accountXpubsFromSeed(devSeed);
    HARDHAT_ACCOUNTS.forEach((address, index) => expect(deriveEvmAddress({ accountXpub: evm }, index)).toBe(address));
    for (const index of [3, 17, 1000, 2 ** 31 - 1]) {
      expect(deriveEvmAddress({ accountXpub: evm }, index)).toBe(deriveEvmAddress({ seed: devSeed }, index));
    }
  });
});

describe("Tron deposit addresses (m/44'/195'/0'/0/i)", () => {
  // trezor/trezor-firmware common/tests/fixtures/tron/get_address.json ("all" mnemonic).
  const TREZOR_TRON = ['TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRWT', 'TFz2CJn9CJb8C4i1Gke3jmZX2fRMJxniH2', 'TQSw9qVAigRwfgPdf7aW4wxbG9tFitexg2'];

  it.each(TREZOR_TRON.map((address, index) => [index, address] as const))('index %i from the seed is %s', (index, address) => {
    expect(deriveTronAddress({ seed: trezorSeed }, index)).toBe(address);
  });

  it('the account xpub derives the same addresses as the seed', () => {
    const { tron } = accountXpubsFromSeed(trezorSeed);
    TREZOR_TRON.forEach((address, index) => expect(deriveTronAddress({ accountXpub: tron }, index)).toBe(address));
    for (const index of [3, 17, 1000]) {
      expect(deriveTronAddress({ accountXpub: tron }, index)).toBe(deriveTronAddress({ seed: trezorSeed }, index));
    }
  });

  it('EVM and Tron xpubs differ, so one cannot stand in for the other', () => {
    const xpubs = accountXpubsFromSeed(trezorSeed);
    expect(xpubs.evm).not.toBe(xpubs.tron);
    expect(tronAddressToEvmHex(deriveTronAddress({ seed: trezorSeed }, 0))).not.toBe(
      deriveEvmAddress({ seed: trezorSeed }, 0).toLowerCase(),
    );
  });
});

describe('account xpub checks', () => {
  it('refuses an extended private key, so public-only components never hold one', () => {
    const xprv = HDKey.fromMasterSeed(devSeed).derive(EVM_ACCOUNT_PATH).privateExtendedKey;
    expect(() => deriveEvmAddress({ accountXpub: xprv }, 0)).toThrow(InvalidAccountXpubError);
  });

  it('refuses an xpub from another level of the tree', () => {
    const rootXpub = HDKey.fromMasterSeed(devSeed).publicExtendedKey;
    const addressXpub = HDKey.fromMasterSeed(devSeed).derive(`${EVM_ACCOUNT_PATH}/0`).publicExtendedKey;
    expect(() => deriveEvmAddress({ accountXpub: rootXpub }, 0)).toThrow(/depth 0/);
    expect(() => deriveTronAddress({ accountXpub: addressXpub }, 0)).toThrow(/depth 5/);
  });

  it('refuses strings that are not extended keys, with a stable error name', () => {
    const garbled = accountXpubsFromSeed(devSeed).evm.slice(0, -1) + 'x';
    for (const accountXpub of ['', 'xpub', garbled]) {
      expect(() => deriveEvmAddress({ accountXpub }, 0)).toThrow(InvalidAccountXpubError);
    }
    expect(() => deriveEvmAddress({ accountXpub: 'xpub' }, 0)).toThrow(expect.objectContaining({ name: 'InvalidAccountXpubError' }));
  });
});

describe('parsed account xpubs', () => {
  // Seeds of their own, so no other test parsed these xpubs before.
  const xpubsOf = (fill: number) => accountXpubsFromSeed(new Uint8Array(32).fill(fill));

  it('parses an account xpub once for every address it derives, each the address the seed gives', () => {
    const seed = new Uint8Array(32).fill(1);
    const { evm, tron } = accountXpubsFromSeed(seed);
    const parse = vi.spyOn(HDKey, 'fromExtendedKey');
    try {
      for (const index of [0, 1, 2, 1]) {
        expect(deriveEvmAddress({ accountXpub: evm }, index)).toBe(deriveEvmAddress({ seed }, index));
        expect(deriveTronAddress({ accountXpub: tron }, index)).toBe(deriveTronAddress({ seed }, index));
      }
      expect(parse.mock.calls.map(([xpub]) => xpub)).toEqual([evm, tron]);
    } finally {
      parse.mockRestore();
    }
  });

  it('refuses a bad xpub on every call, never keeping it', () => {
    const xprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(2)).derive(EVM_ACCOUNT_PATH).privateExtendedKey;
    expect(() => deriveEvmAddress({ accountXpub: xprv }, 0)).toThrow(InvalidAccountXpubError);
    expect(() => deriveEvmAddress({ accountXpub: xprv }, 0)).toThrow(InvalidAccountXpubError);
  });

  it('keeps a bounded number: past it, a kept xpub is parsed again and still derives the same address', () => {
    const first = xpubsOf(3).evm;
    const address = deriveEvmAddress({ accountXpub: first }, 5);
    for (let fill = 10; fill < 30; fill++) deriveEvmAddress({ accountXpub: xpubsOf(fill).evm }, 0);
    const parse = vi.spyOn(HDKey, 'fromExtendedKey');
    try {
      expect(deriveEvmAddress({ accountXpub: first }, 5)).toBe(address);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe('SLIP-0010 ed25519', () => {
  // satoshilabs/slips slip-0010.md, "Test vector 1 for ed25519" (seed 000102030405060708090a0b0c0d0e0f).
  // The spec prints public keys with a 0x00 prefix byte; the raw ed25519 key is the remaining 32 bytes.
  const seed = hexToBytes('000102030405060708090a0b0c0d0e0f');
  const VECTOR_1 = [
    {
      path: [],
      chainCode: '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
      privateKey: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
      publicKey: '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
    },
    {
      path: [0],
      chainCode: '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
      privateKey: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
      publicKey: '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    },
    {
      path: [0, 1],
      chainCode: 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
      privateKey: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
      publicKey: '001932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
    },
    {
      path: [0, 1, 2],
      chainCode: '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
      privateKey: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
      publicKey: '00ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
    },
    {
      path: [0, 1, 2, 2],
      chainCode: '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
      privateKey: '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
      publicKey: '008abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
    },
    {
      path: [0, 1, 2, 2, 1000000000],
      chainCode: '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
      privateKey: '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
      publicKey: '003c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
    },
  ];

  it.each(VECTOR_1.map((vector) => [`m${vector.path.map((i) => `/${i}H`).join('')}`, vector] as const))('%s', (_chain, vector) => {
    const node = slip10Ed25519(seed, vector.path);
    expect(bytesToHex(node.chainCode)).toBe(vector.chainCode);
    expect(bytesToHex(node.privateKey)).toBe(vector.privateKey);
    expect(`00${bytesToHex(node.publicKey)}`).toBe(vector.publicKey);
  });

  it('rejects indexes that are already hardened or not integers', () => {
    expect(() => slip10Ed25519(seed, [2 ** 31])).toThrow(RangeError);
    expect(() => slip10Ed25519(seed, [-1])).toThrow(RangeError);
    expect(() => slip10Ed25519(seed, [1.5])).toThrow(RangeError);
  });
});

describe("Solana deposit addresses (m/44'/501'/i'/0')", () => {
  it('index 0 and 1 match trezor-firmware common/tests/fixtures/solana/get_address.json ("all" mnemonic)', () => {
    expect(deriveSolanaAddress(trezorSeed, 0)).toBe('14CCvQzQzHCVgZM3j9soPnXuJXh1RmCfwLVUcdfbZVBS');
    expect(deriveSolanaAddress(trezorSeed, 1)).toBe('CqPFGxxzrE2bgLGC98x9rYix7Nq17mh8L7pWseJt3c9N');
  });

  it('the public key at index 0 matches trezor-firmware common/tests/fixtures/solana/get_public_key.json', () => {
    expect(bytesToHex(slip10Ed25519(trezorSeed, [44, 501, 0, 0]).publicKey)).toBe(
      '00d1699dcb1811b50bb0055f13044463128242e37a463b52f6c97a1f6eef88ad',
    );
  });
});

describe('deriveDepositAddresses', () => {
  it('gives one address per chain family, each from its own path (the trezor-firmware fixtures above)', () => {
    expect(deriveDepositAddresses(trezorSeed, 0)).toEqual({
      evm: '0x73d0385F4d8E00C5e6504C6030F47BF6212736A8',
      tron: 'TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRWT',
      solana: '14CCvQzQzHCVgZM3j9soPnXuJXh1RmCfwLVUcdfbZVBS',
    });
  });

  it('refuses indexes outside [0, 2^31)', () => {
    for (const index of [-1, 2 ** 31, 0.5, Number.NaN]) {
      expect(() => deriveDepositAddresses(devSeed, index)).toThrow(RangeError);
      expect(() => deriveEvmAddress({ accountXpub: accountXpubsFromSeed(devSeed).evm }, index)).toThrow(RangeError);
    }
  });
});

describe('depositSeed', () => {
  it("the worker's default test xpubs are the development mnemonic's, so its test addresses match the signer's", () => {
    expect(accountXpubsFromSeed(devSeed)).toEqual(DEVELOPMENT_ACCOUNT_XPUBS);
  });

  it('test mode without a mnemonic uses the development mnemonic (BIP-39, empty passphrase)', () => {
    expect(depositSeed({ mode: 'test' })).toEqual(mnemonicToSeedSync(DEVELOPMENT_MNEMONIC));
    expect(depositSeed({ mode: 'test', mnemonic: '  ' })).toEqual(devSeed);
    expect(devSeed).toHaveLength(64);
  });

  it('uses the configured mnemonic in either mode, whitespace-insensitively', () => {
    expect(depositSeed({ mode: 'live', mnemonic: TREZOR_ALL_MNEMONIC })).toEqual(mnemonicToSeedSync(TREZOR_ALL_MNEMONIC));
    expect(depositSeed({ mode: 'test', mnemonic: ` ${TREZOR_ALL_MNEMONIC.replaceAll(' ', '  \n')} ` })).toEqual(trezorSeed);
  });

  const refusal = (source: Parameters<typeof depositSeed>[0]): DepositSeedRefusedError => {
    try {
      depositSeed(source);
    } catch (error) {
      expect(error).toBeInstanceOf(DepositSeedRefusedError);
      expect((error as Error).name).toBe('DepositSeedRefusedError');
      return error as DepositSeedRefusedError;
    }
    throw new Error('expected depositSeed to refuse');
  };

  it('live mode refuses a missing mnemonic', () => {
    expect(refusal({ mode: 'live' }).reason).toBe('missing_mnemonic');
    expect(refusal({ mode: 'live', mnemonic: '' }).reason).toBe('missing_mnemonic');
  });

  it('live mode refuses the development mnemonic, however it is spaced', () => {
    expect(refusal({ mode: 'live', mnemonic: DEVELOPMENT_MNEMONIC }).reason).toBe('development_mnemonic_in_live');
    expect(refusal({ mode: 'live', mnemonic: ` ${DEVELOPMENT_MNEMONIC.replaceAll(' ', '\t')} ` }).reason).toBe(
      'development_mnemonic_in_live',
    );
  });

  it('refuses invalid mnemonics in both modes without echoing them', () => {
    const badChecksum = 'all all all all all all all all all all all able';
    for (const mnemonic of [
      'not a mnemonic',
      badChecksum,
      'all all all all all all all all all all all',
      'All all all all all all all all all all all all',
    ]) {
      for (const mode of ['test', 'live'] as const) {
        const error = refusal({ mode, mnemonic });
        expect(error.reason).toBe('invalid_mnemonic');
        expect(error.message).not.toContain(mnemonic);
      }
    }
  });
});

describe('EVM address format', () => {
  // EIP-55 specification examples (eips.ethereum.org/EIPS/eip-55).
  const EIP55 = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(EIP55)('checksums %s', (address) => {
    expect(toChecksumEvmAddress(address.toLowerCase())).toBe(address);
    expect(isEvmAddress(address)).toBe(true);
  });

  it('rejects a broken checksum, wrong lengths and non-hex', () => {
    const brokenChecksum = '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    for (const value of [
      brokenChecksum,
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA',
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '',
    ]) {
      expect(isEvmAddress(value)).toBe(false);
      expect(() => toChecksumEvmAddress(value)).toThrow(InvalidEvmAddressError);
    }
  });

  it('accepts compressed and uncompressed public keys alike', () => {
    const privateKey = hexToBytes('2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54');
    expect(evmAddressFromPublicKey(secp256k1.getPublicKey(privateKey, true))).toBe(
      evmAddressFromPublicKey(secp256k1.getPublicKey(privateKey, false)),
    );
  });
});

describe('Tron address format', () => {
  // Tron mainnet USDT (TRC-20) contract, as listed by Tether and Tronscan, in base58 and in 41-hex form.
  const USDT_BASE58 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const USDT_HEX41 = '41a614f803b6fd780986a42c78ec9c7f77e6ded13c';

  it('converts the USDT contract address between all three forms', () => {
    expect(tronAddressToHex(USDT_BASE58)).toBe(USDT_HEX41);
    expect(tronAddressFromHex(USDT_HEX41)).toBe(USDT_BASE58);
    expect(tronAddressFromHex(USDT_HEX41.toUpperCase())).toBe(USDT_BASE58);
    expect(tronAddressToEvmHex(USDT_BASE58)).toBe(`0x${USDT_HEX41.slice(2)}`);
    expect(tronAddressFromEvmHex(`0x${USDT_HEX41.slice(2)}`)).toBe(USDT_BASE58);
    expect(tronAddressFromEvmHex(toChecksumEvmAddress(`0x${USDT_HEX41.slice(2)}`))).toBe(USDT_BASE58);
  });

  it('derives an address from a public key (trustwallet/wallet-core tests/chains/Tron/AddressTests.cpp)', () => {
    const cases = [
      ['2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC'],
      ['BE88DF1D0BF30A923CB39C3BB953178BAAF3726E8D3CE81E7C8462E046E0D835', 'THRF3GuPnvvPzKoaT8pJex5XHmo8NNbCb3'],
    ] as const;
    for (const [privateKey, address] of cases) {
      const publicKey = secp256k1.getPublicKey(hexToBytes(privateKey.toLowerCase()), false);
      expect(tronAddressFromEvmHex(evmAddressFromPublicKey(publicKey))).toBe(address);
    }
  });

  it('round-trips derived addresses through every form', () => {
    for (let index = 0; index < 5; index++) {
      const address = deriveTronAddress({ seed: trezorSeed }, index);
      expect(isTronAddress(address)).toBe(true);
      expect(tronAddressFromHex(tronAddressToHex(address))).toBe(address);
      expect(tronAddressFromEvmHex(tronAddressToEvmHex(address))).toBe(address);
      expect(tronAddressToHex(address).slice(2)).toBe(tronAddressToEvmHex(address).slice(2));
    }
  });

  it('rejects bad checksums, foreign prefixes and malformed input', () => {
    const flipped = USDT_BASE58.slice(0, -1) + (USDT_BASE58.endsWith('t') ? 'u' : 't');
    // The invalid cases of trustwallet/wallet-core tests/chains/Tron/AddressTests.cpp (a Bitcoin address among them).
    const invalid = [
      'abc',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W',
      '2MegQ6oqSda2tTagdEzBA',
      flipped,
      '',
    ];
    for (const value of invalid) {
      expect(isTronAddress(value)).toBe(false);
      expect(() => tronAddressToHex(value)).toThrow(InvalidTronAddressError);
      expect(() => tronAddressToEvmHex(value)).toThrow(InvalidTronAddressError);
    }
    expect(isTronAddress('TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC')).toBe(true);
    for (const hex of [
      'a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      '42a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      `${USDT_HEX41}00`,
      '0x' + USDT_HEX41,
    ]) {
      expect(() => tronAddressFromHex(hex)).toThrow(InvalidTronAddressError);
    }
    for (const hex of [USDT_HEX41, '0xa614f803b6fd780986a42c78ec9c7f77e6ded1', '0xg614f803b6fd780986a42c78ec9c7f77e6ded13c']) {
      expect(() => tronAddressFromEvmHex(hex)).toThrow(InvalidTronAddressError);
    }
  });
});

describe('Solana address format', () => {
  it('accepts well-known program and mint addresses', () => {
    // System Program, SPL Token program and the USDC mint, as published in Solana's and Circle's documentation.
    for (const address of [
      '11111111111111111111111111111111',
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    ]) {
      expect(isSolanaAddress(address)).toBe(true);
    }
  });

  it('rejects non-base58, wrong lengths and non-canonical spellings', () => {
    const valid = deriveSolanaAddress(trezorSeed, 0);
    for (const value of [
      '',
      '0OIl' + valid.slice(4),
      valid.slice(0, -2),
      `${valid}1`,
      '1'.repeat(33),
      'T'.repeat(44),
      '0x' + 'ab'.repeat(32),
    ]) {
      expect(isSolanaAddress(value)).toBe(false);
    }
  });

  it('encodes 32-byte public keys only', () => {
    expect(solanaAddressFromPublicKey(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    expect(() => solanaAddressFromPublicKey(new Uint8Array(33))).toThrow(RangeError);
  });
});
