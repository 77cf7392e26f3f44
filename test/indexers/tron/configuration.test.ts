import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadChainsConfig } from '../../../config/chains';
import { ConfigError } from '../../../config/env';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { IndexerMetrics } from '../../../indexers/core/metrics';
import { buildTronIndexer, indexedTronDeployments } from '../../../indexers/tron/startTronIndexers';
import { NetworkMismatchError } from '../../../indexers/core/chainReader';
import { startTronTestNode, type TronTestNode } from '../../support/tron/tronNode';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { RecordingSignalSender, silentLogger, USDT } from './tronFixture';

describe('Tron indexer: configuration', () => {
  let db: TestDatabase;
  let node: TronTestNode;

  beforeAll(async () => {
    [db, node] = await Promise.all([createTestDatabase(), startTronTestNode()]);
  });

  afterAll(async () => {
    await Promise.allSettled([node?.close(), db?.drop()]);
  });

  test('a token override for tron must be a base58check T-address', () => {
    expect(() => loadChainsConfig({ TOKEN_USDT_TRON_TESTNET: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c:6' })).toThrow(ConfigError);
    expect(() => loadChainsConfig({ TOKEN_USDT_TRON_TESTNET: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c:6' })).toThrow(ConfigError);
    // One character off: the base58check checksum catches it.
    expect(() => loadChainsConfig({ TOKEN_USDT_TRON_TESTNET: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u:6' })).toThrow(/TOKEN_USDT_TRON_TESTNET/);
    const registry = createChainRegistry(loadChainsConfig({ RPC_URLS_TRON_TESTNET: node.url, TOKEN_USDT_TRON_TESTNET: `${USDT}:6` }));
    expect(registry.token('tron', 'testnet', 'USDT')).toEqual({ symbol: 'USDT', address: USDT, decimals: 6 });
  });

  test('only networks with RPC URLs and a token are indexed; mainnet has USDT alone, USDC being discontinued', () => {
    const registry = createChainRegistry(loadChainsConfig({ RPC_URLS_TRON_MAINNET: node.url, RPC_URLS_TRON_TESTNET: node.url }));
    const deployments = indexedTronDeployments(registry);
    expect(deployments.map((d) => [d.network, d.confirmations, d.tokens.map((t) => t.symbol)])).toEqual([['mainnet', 19, ['USDT']]]);
  });

  test('a mainnet indexer pointed at a Nile node refuses to start; the Nile one accepts it', async () => {
    const config = loadChainsConfig({
      RPC_URLS_TRON_MAINNET: node.url,
      RPC_URLS_TRON_TESTNET: node.url,
      TOKEN_USDT_TRON_TESTNET: `${USDT}:6`,
    });
    const registry = createChainRegistry(config);
    const deps = {
      sql: db.sql,
      tuning: config.indexer,
      sender: new RecordingSignalSender(),
      logger: silentLogger,
      metrics: new IndexerMetrics(),
    };
    const mainnet = buildTronIndexer(registry.get('tron', 'mainnet'), deps);
    await expect(mainnet.run(new AbortController().signal)).rejects.toThrow(NetworkMismatchError);
    await expect(buildTronIndexer(registry.get('tron', 'testnet'), deps).verifyNetwork()).resolves.toBeUndefined();
  });
});
