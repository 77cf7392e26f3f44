// The signer's EVM sweepers from configuration (signer/config/evmSweepers.ts): the last RPC URL, where it differs from
// the first, is the second provider a nonce taken by another transaction needs (docs/settlement.md#never-signed-twice-evm-nonces).
import { describe, expect, it } from 'vitest';
import { loadChainsConfig } from '../../../config/chains';
import { loadConfig } from '../../../config/env';
import type { Sql } from '../../../db/client';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { NO_DEPOSIT_FORWARDERS } from '../../../domain/addresses/depositForwarder';
import { evmSweepersFromConfig } from '../../../signer/config/evmSweepers';

// Hardhat's published account #2: a relayer key nobody uses for money.
const RELAYER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

describe('the signer’s EVM sweepers from configuration', () => {
  it('gives a chain with two RPC URLs a witness on the last, and a chain with one none', () => {
    const config = loadConfig({ SIGNER_MODE: 'test', EVM_RELAYER_KEY_TEST: RELAYER_KEY }, 'signer');
    const chains = {
      RPC_URLS_BASE_TESTNET: 'http://127.0.0.1:1,http://127.0.0.1:2',
      RPC_URLS_POLYGON_TESTNET: 'http://127.0.0.1:3',
    };
    const sweepers = evmSweepersFromConfig(config.evmSweeps, createChainRegistry(loadChainsConfig(chains)), {} as Sql, {
      depositSeeds: { test: undefined, live: undefined },
      collectors: { test: undefined, live: undefined },
      depositForwarders: NO_DEPOSIT_FORWARDERS,
    });
    expect(sweepers['base:test']?.witness?.transport.url).toBe('http://127.0.0.1:2');
    expect(sweepers['base:test']?.client.transport.url).toBe('http://127.0.0.1:1');
    expect(sweepers['polygon:test']).toBeDefined();
    expect(sweepers['polygon:test']?.witness).toBeUndefined();
  });
});
