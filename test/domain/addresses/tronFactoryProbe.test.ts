import { describe, expect, test } from 'vitest';
import { tronForwarderAddress } from '../../../domain/addresses/depositForwarder';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { TRON_FACTORY_PROBE_SALT, tronFactoryProbeMismatch } from '../../../domain/addresses/tronFactoryProbe';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';

const CONTRACTS = {
  factory: tronAddressFromEvmHex('0x00000000000000000000000000000000000fac70'),
  implementation: tronAddressFromEvmHex('0x0000000000000000000000000000000000000f0e'),
};

describe('the Tron factory probe', () => {
  test('is no session salt', () => {
    expect(TRON_FACTORY_PROBE_SALT).not.toBe(depositSalt('factory-probe'));
    expect(TRON_FACTORY_PROBE_SALT).toMatch(/^0x[0-9a-f]{64}$/);
  });

  test('passes a factory that answers the offline TVM address', () => {
    expect(tronFactoryProbeMismatch(CONTRACTS, tronForwarderAddress(CONTRACTS, TRON_FACTORY_PROBE_SALT))).toBeUndefined();
  });

  test('names the factory, both addresses and the TVM build when the answer differs', () => {
    const answered = tronAddressFromEvmHex('0x1111111111111111111111111111111111111111');
    const mismatch = tronFactoryProbeMismatch(CONTRACTS, answered);
    expect(mismatch).toContain(CONTRACTS.factory);
    expect(mismatch).toContain(answered);
    expect(mismatch).toContain(tronForwarderAddress(CONTRACTS, TRON_FACTORY_PROBE_SALT));
    expect(mismatch).toContain('contracts/artifacts/tvm/');
  });
});
