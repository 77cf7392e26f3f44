// Smart deposit addresses computed offline, pinned by published vectors: EIP-1014's CREATE2
// examples, java-tron's unit test of its CREATE2 formula, and EIP-1167's proxy bytes.
import { describe, expect, it } from 'vitest';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { evmCreate2Address, tronCreate2AddressBytes } from '../../../domain/addresses/create2';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { evmForwarderAddress, tronForwarderAddress } from '../../../domain/addresses/depositForwarder';
import { minimalProxyInitCode } from '../../../domain/addresses/minimalProxy';
import { isTronAddress, tronAddressFromEvmHex, tronAddressToEvmHex, tronAddressToHex } from '../../../domain/addresses/tron';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_SALT = `0x${'00'.repeat(32)}` as const;
const word = (hex: string) => `0x${hex.padStart(64, '0')}` as const;

describe('EVM CREATE2 (EIP-1014)', () => {
  // The seven examples of eips.ethereum.org/EIPS/eip-1014, "Examples".
  const EXAMPLES = [
    [ZERO_ADDRESS, ZERO_SALT, '0x00', '0x4D1A2e2bB4F88F0250f26Ffff098B0b30B26BF38'],
    ['0xdeadbeef00000000000000000000000000000000', ZERO_SALT, '0x00', '0xB928f69Bb1D91Cd65274e3c79d8986362984fDA3'],
    [
      '0xdeadbeef00000000000000000000000000000000',
      `0x000000000000000000000000feed${'00'.repeat(18)}`,
      '0x00',
      '0xD04116cDd17beBE565EB2422F2497E06cC1C9833',
    ],
    [ZERO_ADDRESS, ZERO_SALT, '0xdeadbeef', '0x70f2b2914A2a4b783FaEFb75f459A580616Fcb5e'],
    ['0x00000000000000000000000000000000deadbeef', word('cafebabe'), '0xdeadbeef', '0x60f3f640a8508fC6a86d45DF051962668E1e8AC7'],
    [
      '0x00000000000000000000000000000000deadbeef',
      word('cafebabe'),
      `0x${'deadbeef'.repeat(11)}`,
      '0x1d8bfDC5D46DC4f61D6b6115972536eBE6A8854C',
    ],
    [ZERO_ADDRESS, ZERO_SALT, '0x', '0xE33C0C7F7df4809055C3ebA6c09CFe4BaF1BD9e0'],
  ] as const;

  it.each(EXAMPLES.map((example, n) => [n, ...example] as const))('example %i', (_n, deployer, salt, initCode, address) => {
    expect(evmCreate2Address(deployer, salt, initCode)).toBe(address);
  });
});

describe('Tron CREATE2 (java-tron WalletUtil.generateContractAddress2)', () => {
  it('gives java-tron\'s unit-test vector: address = salt = code = the bytes of "AXAXAXAX"', () => {
    // WalletUtilTest.testGenerateContractAddress2 (tronprotocol/java-tron), its expected bytes as hex.
    const axax = utf8ToBytes('AXAXAXAX');
    expect(bytesToHex(tronCreate2AddressBytes(axax, axax, axax))).toBe('412cd6cbb39e332f95b08f78dfc78475397238b970');
  });

  it('hashes 0x41 ‖ deployer ‖ salt ‖ keccak256(code) with no 0xff, so it differs from the EVM address of the same bytes', () => {
    const factory = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const code = minimalProxyInitCode('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512');
    const salt = depositSalt('cs_01JCHECKOUT0000000000000000');
    const tron = tronCreate2AddressBytes(hexToBytes(`41${factory.slice(2)}`), hexToBytes(salt.slice(2)), hexToBytes(code.slice(2)));
    const digest = keccak_256(
      new Uint8Array([0x41, ...hexToBytes(factory.slice(2)), ...hexToBytes(salt.slice(2)), ...keccak_256(hexToBytes(code.slice(2)))]),
    );
    expect(bytesToHex(tron)).toBe(`41${bytesToHex(digest.slice(12))}`);
    expect(`0x${bytesToHex(tron.slice(1))}`).not.toBe(evmCreate2Address(factory, salt, code).toLowerCase());
  });
});

describe('EIP-1167 minimal proxy', () => {
  it('is the 55-byte creation code of the EIP and OpenZeppelin Clones, with the implementation inline', () => {
    expect(minimalProxyInitCode('0xbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbE')).toBe(
      '0x3d602d80600a3d3981f3363d3d373d3d3d363d73bebebebebebebebebebebebebebebebebebebebe5af43d82803e903d91602b57fd5bf3',
    );
  });

  it('refuses what is not an EVM address rather than build a proxy to nowhere', () => {
    expect(() => minimalProxyInitCode('0x1234' as `0x${string}`)).toThrow();
  });
});

describe('deposit salt', () => {
  it('is keccak256 of "checkout-deposit:v1:" and the session id, one per session', () => {
    const sessionId = 'cs_01JCHECKOUT0000000000000000';
    expect(depositSalt(sessionId)).toBe(`0x${bytesToHex(keccak_256(utf8ToBytes(`checkout-deposit:v1:${sessionId}`)))}`);
    expect(depositSalt(sessionId)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(depositSalt('cs_01JCHECKOUT0000000000000001')).not.toBe(depositSalt(sessionId));
  });
});

describe('forwarder deposit addresses', () => {
  const evm = {
    factory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    implementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  } as const;
  const tron = {
    factory: tronAddressFromEvmHex(evm.factory.toLowerCase()),
    implementation: tronAddressFromEvmHex(evm.implementation.toLowerCase()),
  };
  const salt = depositSalt('cs_01JCHECKOUT0000000000000000');

  it('clone vector: the address where a Hardhat EVM deployed this clone (forwarderAddressOnChain.test.ts)', () => {
    const proxy = {
      factory: '0x4e59b44847b379578588920cA78FbF26c0B4956C',
      implementation: '0xbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbE',
    } as const;
    expect(salt).toBe('0xe96d2c2e12ab85457cadadbc95cc5b63d7bcee0c24109dcdec996badfb0848fa');
    expect(evmForwarderAddress(proxy, salt)).toBe('0x2F88D2114829E85D409439bee0680Ee3ABC93968');
  });

  it("on EVM chains: CREATE2 by the factory of the implementation's clone, with the session's salt", () => {
    expect(evmForwarderAddress(evm, salt)).toBe(evmCreate2Address(evm.factory, salt, minimalProxyInitCode(evm.implementation)));
  });

  it("on Tron: the TVM formula with the factory's 21-byte form and the implementation's 20 bytes in the proxy", () => {
    const address = tronForwarderAddress(tron, salt);
    expect(isTronAddress(address)).toBe(true);
    const bytes = tronCreate2AddressBytes(
      hexToBytes(tronAddressToHex(tron.factory)),
      hexToBytes(salt.slice(2)),
      hexToBytes(minimalProxyInitCode(evm.implementation).slice(2)),
    );
    expect(tronAddressToHex(address)).toBe(bytesToHex(bytes));
    expect(tronAddressToEvmHex(address)).not.toBe(evmForwarderAddress(evm, salt).toLowerCase());
  });

  it('refuses a salt that is not 32 bytes rather than pad it to another address', () => {
    for (const bad of ['0x01', `${salt}00`, salt.slice(0, -1)]) {
      expect(() => evmForwarderAddress(evm, bad as `0x${string}`)).toThrow(RangeError);
      expect(() => tronForwarderAddress(tron, bad as `0x${string}`)).toThrow(RangeError);
    }
  });
});
