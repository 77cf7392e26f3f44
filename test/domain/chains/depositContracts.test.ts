import { decodeDeployData, getAddress, size, slice, zeroHash } from 'viem';
import { describe, expect, test } from 'vitest';
import * as depositCollector from '../../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../../contracts/artifacts/depositFactory';
import {
  depositCollectorAddress,
  depositCollectorInitCode,
  depositContractAddresses,
  depositFactoryInitCode,
  forwarderAddress,
  forwarderInitCode,
  proxyDeployData,
  type DepositCollectorParams,
  type DepositFactoryParams,
} from '../../../domain/chains/depositContracts';

const params: DepositFactoryParams = {
  collector: getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906'),
  owner: getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'),
  sweeper: getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'),
};

describe('deposit contract addresses, offline', () => {
  test('the factory is built over the forwarder at its deterministic address, with the given roles', () => {
    const { args } = decodeDeployData({ abi: depositFactory.abi, bytecode: depositFactory.bytecode, data: depositFactoryInitCode(params) });
    expect(args).toEqual([forwarderAddress(), params.collector, params.owner, params.sweeper]);
  });

  test('the same roles give the same addresses; each role changes the factory, never the forwarder', () => {
    const base = depositContractAddresses(params);
    expect(depositContractAddresses({ ...params })).toEqual(base);
    const other = getAddress('0x15d34aaf54267db7d7c367839aaf71a00a2c6a65');
    for (const role of ['collector', 'owner', 'sweeper'] as const) {
      const changed = depositContractAddresses({ ...params, [role]: other });
      expect(changed.forwarder, role).toBe(base.forwarder);
      expect(changed.factory, role).not.toBe(base.factory);
    }
  });

  test("the proxy's calldata is salt 0 followed by the init code", () => {
    const data = proxyDeployData(forwarderInitCode());
    expect(slice(data, 0, 32)).toBe(zeroHash);
    expect(slice(data, 32)).toBe(forwarderInitCode());
    expect(size(data)).toBe(32 + size(forwarderInitCode()));
  });

  test('the collector is built over the given messenger, recipient and roles, and each one moves it', () => {
    const collectorParams: DepositCollectorParams = {
      tokenMessenger: getAddress('0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d'),
      mintRecipient: `0x${'11'.repeat(32)}`,
      owner: params.owner,
      sweeper: params.sweeper,
    };
    const { args } = decodeDeployData({
      abi: depositCollector.abi,
      bytecode: depositCollector.bytecode,
      data: depositCollectorInitCode(collectorParams),
    });
    expect(args).toEqual([collectorParams.tokenMessenger, collectorParams.mintRecipient, collectorParams.owner, collectorParams.sweeper]);
    const base = depositCollectorAddress(collectorParams);
    expect(depositCollectorAddress({ ...collectorParams })).toBe(base);
    expect(depositCollectorAddress({ ...collectorParams, mintRecipient: `0x${'22'.repeat(32)}` })).not.toBe(base);
    expect(depositCollectorAddress({ ...collectorParams, owner: params.collector })).not.toBe(base);
  });
});
