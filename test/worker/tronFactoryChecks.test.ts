// The worker's start-up check of TRON_DEPOSIT_FACTORY_<MODE>, against the java-tron HTTP API stand-in: a factory that
// answers addressOf(probe) with the offline Tron address passes (the stand-in answers as the TVM build does,
// test/contracts/tvmDepositContracts.test.ts); one answering as the EVM build (0xff) does, or that cannot be asked,
// stops the start with the variable named.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChainsConfig } from '../../config/chains';
import { ConfigError } from '../../config/env';
import { evmForwarderAddress, NO_DEPOSIT_FORWARDERS, type DepositForwarders } from '../../domain/addresses/depositForwarder';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../domain/addresses/tron';
import { TRON_FACTORY_PROBE_SALT } from '../../domain/addresses/tronFactoryProbe';
import { checkTronFactories } from '../../worker/tronFactoryChecks';
import { startTronWalletNode, type TronWalletNode } from '../support/tron/tronWalletNode';

const CONTRACTS = {
  factory: tronAddressFromEvmHex('0x00000000000000000000000000000000000fac70'),
  implementation: tronAddressFromEvmHex('0x0000000000000000000000000000000000000f0e'),
};
const FORWARDERS: DepositForwarders = { ...NO_DEPOSIT_FORWARDERS, test: { evm: undefined, tron: CONTRACTS } };

let node: TronWalletNode;
let chains: Pick<ChainsConfig, 'tronHttpApi'>;

beforeAll(async () => {
  node = await startTronWalletNode();
  node.deployFactory({ ...CONTRACTS, collector: tronAddressFromEvmHex('0x0000000000000000000000000000000000c011ec') });
  chains = { tronHttpApi: { testnet: { fullNodeUrl: node.url, solidityUrl: node.url } } };
});
afterAll(async () => {
  await node?.close();
});

describe('checkTronFactories', () => {
  test('passes a factory whose addressOf is the offline Tron address, asking it once', async () => {
    node.setPolicy(() => 'answer');
    const before = node.calls.get('/wallet/triggerconstantcontract') ?? 0;
    await expect(checkTronFactories(FORWARDERS, chains)).resolves.toBeUndefined();
    expect(node.calls.get('/wallet/triggerconstantcontract')).toBe(before + 1);
  });

  test('asks nothing when no mode has a Tron factory', async () => {
    await expect(checkTronFactories(NO_DEPOSIT_FORWARDERS, { tronHttpApi: {} })).resolves.toBeUndefined();
  });

  test('refuses a factory that predicts with EIP-1014 (the EVM build), naming the variable', async () => {
    const evmPrediction = evmForwarderAddress(
      { factory: tronAddressToEvmHex(CONTRACTS.factory), implementation: tronAddressToEvmHex(CONTRACTS.implementation) },
      TRON_FACTORY_PROBE_SALT,
    );
    node.setPolicy((path) =>
      path === '/wallet/triggerconstantcontract'
        ? { body: { result: { result: true }, constant_result: [evmPrediction.slice(2).toLowerCase().padStart(64, '0')] } }
        : 'answer',
    );
    const refused = checkTronFactories(FORWARDERS, chains);
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(/^TRON_DEPOSIT_FACTORY_TEST: the factory T\S+ answers addressOf\(0x[0-9a-f]{64}\) = T/);
    await expect(refused).rejects.toThrow(tronAddressFromEvmHex(evmPrediction));
    await expect(refused).rejects.toThrow(/TRON_DEPOSIT_FORWARDER_TEST name a TVM-built pair/);
  });

  test('refuses to start when the factory cannot be asked', async () => {
    node.setPolicy((path) =>
      path === '/wallet/triggerconstantcontract'
        ? { body: { result: { code: 'CONTRACT_VALIDATE_ERROR' }, constant_result: [''] } }
        : 'answer',
    );
    await expect(checkTronFactories(FORWARDERS, chains)).rejects.toThrow(
      /^TRON_DEPOSIT_FACTORY_TEST: could not ask the factory T\S+ for addressOf at start \(.*addressOf did not return an address \(CONTRACT_VALIDATE_ERROR\)\)/,
    );
  });

  test('refuses a Tron factory without the Tron HTTP API to ask it through', async () => {
    await expect(checkTronFactories(FORWARDERS, { tronHttpApi: {} })).rejects.toThrow(
      'invalid configuration: TRON_DEPOSIT_FACTORY_TEST: needs TRON_HTTP_API_URL_TESTNET',
    );
  });
});
