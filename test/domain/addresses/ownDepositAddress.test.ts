// A stored deposit address counts as the session's own only when the signer's own material gives it: the mode's seed
// at the row's index for HD, the signer's configured factory and implementation with the session's salt for forwarders.
import { describe, expect, it } from 'vitest';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { evmForwarderAddress, tronForwarderAddress, type ModeDepositForwarders } from '../../../domain/addresses/depositForwarder';
import { depositSeed } from '../../../domain/addresses/depositSeed';
import { deriveDepositAddresses } from '../../../domain/addresses/hdDerivation';
import { judgeOwnDepositAddress, type StoredDepositAddress } from '../../../domain/addresses/ownDepositAddress';

const seed = depositSeed({ mode: 'test' });
const otherSeed = depositSeed({
  mode: 'test',
  mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
});
const INDEX = 7;
const own = deriveDepositAddresses(seed, INDEX);
const SESSION = 'cs_test_own';
const forwarders: ModeDepositForwarders = {
  evm: { factory: '0x5FbDB2315678afecb367f032d93F642f64180aa3', implementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
  tron: { factory: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', implementation: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
};
const material = { seed, forwarders };

const hd = (family: StoredDepositAddress['family'], address: string | null): StoredDepositAddress => ({
  sessionId: SESSION,
  mode: 'test',
  family,
  derivationIndex: INDEX,
  address,
  scheme: 'hd',
  factory: null,
});

describe('HD addresses', () => {
  it("accepts each family's address the mode's seed derives at the row's index, an EVM one in any spelling", () => {
    for (const family of ['evm', 'tron', 'solana'] as const)
      expect(judgeOwnDepositAddress(hd(family, own[family]), 'test', material)).toEqual({ kind: 'own' });
    expect(judgeOwnDepositAddress(hd('evm', own.evm.toLowerCase()), 'test', material)).toEqual({ kind: 'own' });
  });

  it("refuses an address of another index, of another seed, or a third party's", () => {
    const elsewhere = deriveDepositAddresses(seed, INDEX + 1);
    const foreign = deriveDepositAddresses(otherSeed, INDEX);
    for (const family of ['evm', 'tron', 'solana'] as const) {
      for (const address of [elsewhere[family], foreign[family]]) {
        expect(judgeOwnDepositAddress(hd(family, address), 'test', material)).toEqual({
          kind: 'refused',
          reason: `session ${SESSION}'s test ${family} deposit address ${address} is not the service's own: the signer's seed derives ${own[family]} at index ${INDEX}`,
        });
      }
    }
  });

  it('refuses every HD address of a mode whose seed the signer does not hold, and a session without the address', () => {
    expect(judgeOwnDepositAddress(hd('evm', own.evm), 'test', { seed: undefined, forwarders })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/: the signer holds no test deposit seed to derive its evm address from$/),
    });
    expect(judgeOwnDepositAddress(hd('evm', own.evm), 'live', material)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/is not the service's own: the session is live$/),
    });
    expect(judgeOwnDepositAddress(hd('solana', null), 'test', material)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/the session has no solana deposit address$/),
    });
  });
});

describe('forwarder addresses', () => {
  const salt = depositSalt(SESSION);
  const evmOwn = evmForwarderAddress(forwarders.evm!, salt);
  const tronOwn = tronForwarderAddress(forwarders.tron!, salt);
  const row = (family: 'evm' | 'tron', address: string, factory: string): StoredDepositAddress => ({
    ...hd(family, address),
    scheme: 'forwarder',
    factory,
  });

  it("accepts the CREATE2 address of the signer's own factory and implementation with the session's salt", () => {
    expect(judgeOwnDepositAddress(row('evm', evmOwn, forwarders.evm!.factory.toLowerCase()), 'test', material)).toEqual({ kind: 'own' });
    expect(judgeOwnDepositAddress(row('tron', tronOwn, forwarders.tron!.factory), 'test', material)).toEqual({ kind: 'own' });
  });

  it("refuses a row naming a factory the signer was not configured with, even with that factory's true CREATE2 address", () => {
    const foreign = { factory: '0x000000000000000000000000000000000000dEaD' as const, implementation: forwarders.evm!.implementation };
    const address = evmForwarderAddress(foreign, salt);
    expect(judgeOwnDepositAddress(row('evm', address, foreign.factory), 'test', material)).toEqual({
      kind: 'refused',
      reason: `session ${SESSION}'s test evm deposit address ${address} is not the service's own: its evm row names factory ${foreign.factory}, not the signer's test evm deposit factory ${forwarders.evm!.factory}`,
    });
    expect(
      judgeOwnDepositAddress(row('evm', evmOwn, forwarders.evm!.factory), 'test', {
        seed,
        forwarders: { evm: undefined, tron: forwarders.tron },
      }),
    ).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/the signer knows no test evm deposit factory$/),
    });
  });

  it("refuses another address under the signer's factory: another session's salt, or a third party's address", () => {
    const another = evmForwarderAddress(forwarders.evm!, depositSalt('cs_test_other'));
    for (const address of [another, own.evm]) {
      expect(judgeOwnDepositAddress(row('evm', address, forwarders.evm!.factory), 'test', material)).toEqual({
        kind: 'refused',
        reason: `session ${SESSION}'s test evm deposit address ${address} is not the service's own: the CREATE2 address of the signer's factory with the session's salt is ${evmOwn}`,
      });
    }
    expect(judgeOwnDepositAddress(row('tron', own.tron, forwarders.tron!.factory), 'test', material)).toMatchObject({ kind: 'refused' });
  });
});
