// The indexer's Prometheus view reads the in-memory snapshots at scrape time: head, cursor and lag per chain,
// RPC calls per method, and the other counters.
import { describe, expect, test } from 'vitest';
import { IndexerMetrics } from '../../../indexers/core/metrics';
import { createIndexerRegistry } from '../../../indexers/core/prometheus';
import { startMetricsServer } from '../../../observability/metricsServer';

describe('indexer metrics endpoint', () => {
  test('serves head lag, RPC calls and deposits per chain and network as they are at scrape time', async () => {
    const metrics = new IndexerMetrics();
    const base = metrics.forChain('base', 'mainnet');
    const server = await startMetricsServer(
      createIndexerRegistry(() => metrics.snapshot()),
      '127.0.0.1',
      0,
    );
    try {
      base.head = 1_000n;
      base.cursor = 990n;
      base.rpcCalls = { eth_getLogs: 7, eth_blockNumber: 3 };
      base.depositsDetected = 2;
      metrics.forChain('tron', 'testnet');
      let text = await (await fetch(server.url)).text();
      expect(text).toContain('checkout_indexer_head_lag_blocks{chain="base",network="mainnet"} 10\n');
      expect(text).toContain('checkout_indexer_head_block{chain="base",network="mainnet"} 1000\n');
      expect(text).toContain('checkout_indexer_rpc_calls_total{chain="base",network="mainnet",method="eth_getLogs"} 7\n');
      expect(text).toContain('checkout_indexer_deposits_total{chain="base",network="mainnet",stage="detected"} 2\n');
      expect(text).not.toContain('checkout_indexer_head_lag_blocks{chain="tron"');
      expect(text).toMatch(/process_resident_memory_bytes \d+/);

      base.cursor = 1_000n;
      base.rpcCalls.eth_getLogs = 8;
      text = await (await fetch(server.url)).text();
      expect(text).toContain('checkout_indexer_head_lag_blocks{chain="base",network="mainnet"} 0\n');
      expect(text).toContain('checkout_indexer_rpc_calls_total{chain="base",network="mainnet",method="eth_getLogs"} 8\n');
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
