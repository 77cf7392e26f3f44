// The clone vector, checked by a real EVM. The deterministic deployment proxy (its published runtime,
// Arachnid/deterministic-deployment-proxy) CREATE2s an EIP-1167 clone on a Hardhat node: the clone lands where
// evmForwarderAddress predicts, holding EIP-1167's runtime code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatHex, getAddress } from 'viem';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { evmForwarderAddress } from '../../../domain/addresses/depositForwarder';
import { minimalProxyInitCode } from '../../../domain/addresses/minimalProxy';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';

const DETERMINISTIC_DEPLOYMENT_PROXY = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
const DETERMINISTIC_DEPLOYMENT_PROXY_RUNTIME =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
const IMPLEMENTATION = '0xbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbEbE';

let chain: LocalChain;

beforeAll(async () => {
  chain = await createLocalChain();
  await chain.testClient.setCode({ address: DETERMINISTIC_DEPLOYMENT_PROXY, bytecode: DETERMINISTIC_DEPLOYMENT_PROXY_RUNTIME });
});
afterAll(async () => {
  await chain?.stop();
});

describe('a clone deployed by CREATE2', () => {
  it('lands at the predicted address with the EIP-1167 runtime delegating to the implementation', async () => {
    const salt = depositSalt('cs_01JCHECKOUT0000000000000000');
    const predicted = evmForwarderAddress({ factory: DETERMINISTIC_DEPLOYMENT_PROXY, implementation: IMPLEMENTATION }, salt);
    const hash = await chain.walletClient.sendTransaction({
      to: DETERMINISTIC_DEPLOYMENT_PROXY,
      data: concatHex([salt, minimalProxyInitCode(IMPLEMENTATION)]),
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });

    expect(await chain.publicClient.getCode({ address: predicted })).toBe(
      `0x363d3d373d3d3d363d73${IMPLEMENTATION.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`,
    );
    // The proxy returns the address it created: the same one.
    const created = await chain.publicClient.call({
      to: DETERMINISTIC_DEPLOYMENT_PROXY,
      data: concatHex([depositSalt('cs_other'), minimalProxyInitCode(IMPLEMENTATION)]),
    });
    expect(getAddress(created.data!)).toBe(
      evmForwarderAddress({ factory: DETERMINISTIC_DEPLOYMENT_PROXY, implementation: IMPLEMENTATION }, depositSalt('cs_other')),
    );
  });
});
