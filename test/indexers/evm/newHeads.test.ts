// WS_URLS_<CHAIN>_<NETWORK>: the indexer subscribes to new heads on the local Hardhat node's websocket and reads
// each block as it arrives. Polling is set to ten minutes here, so only the subscription can explain a deposit
// seen within seconds; after the connection is cut the indexer subscribes again by itself.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startRpcProxy } from '../../support/evm/rpcProxy';
import { startTcpRelay, type TcpRelay } from '../../support/evm/tcpRelay';
import { createIndexerFixture, deployTokens, depositsOf, type IndexerFixture, type Tokens } from './indexerFixture';

const PAYER = 1;
const TEN_MINUTES = '600000';

describe('EVM indexer: new-head websocket subscription', () => {
  let fx: IndexerFixture;
  let tokens: Tokens;
  let relay: TcpRelay;
  const abort = new AbortController();

  beforeAll(async () => {
    fx = await createIndexerFixture();
    tokens = await deployTokens(fx.chain, 6);
    await fx.chain.mint(tokens.usdc, fx.chain.account(PAYER).address, 10n ** 15n);
    const node = new URL(fx.chain.rpcUrl);
    relay = await startTcpRelay({ host: node.hostname, port: Number(node.port) });
  });

  afterAll(async () => {
    abort.abort();
    await relay?.close();
    await fx?.stop();
  });

  test('blocks are read as their heads arrive, and the subscription comes back after the socket is cut', async () => {
    const { sessionId, address } = await fx.watchedSession('polygon');
    const { indexer, metrics } = await fx.createIndexer('polygon', tokens, {
      env: {
        WS_URLS_POLYGON_TESTNET: `ws://${relay.address}`,
        INDEXER_POLL_INTERVAL_MS: TEN_MINUTES,
        INDEXER_SUBSCRIBED_POLL_INTERVAL_MS: TEN_MINUTES,
      },
    });
    const running = indexer.run(abort.signal);
    await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(true), { timeout: 15_000, interval: 50 });
    await vi.waitFor(() => expect(metrics.lastTickAt).toBeDefined(), { timeout: 15_000, interval: 50 });

    const first = await fx.chain.transfer(tokens.usdc, PAYER, address, 2_000_000n);
    await vi.waitFor(async () => expect((await depositsOf(fx.db, 'polygon')).map((d) => d.tx_hash)).toEqual([first.hash]), {
      timeout: 15_000,
      interval: 100,
    });

    relay.dropAll();
    await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(false), { timeout: 15_000, interval: 20 });
    await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(true), { timeout: 30_000, interval: 100 });
    expect(relay.accepted).toBeGreaterThanOrEqual(2);

    const second = await fx.chain.transfer(tokens.usdc, PAYER, address, 3_000_000n);
    await vi.waitFor(async () => expect((await depositsOf(fx.db, 'polygon')).map((d) => d.tx_hash)).toEqual([first.hash, second.hash]), {
      timeout: 15_000,
      interval: 100,
    });
    const deposits = await depositsOf(fx.db, 'polygon');
    expect(deposits.every((d) => d.session_id === sessionId)).toBe(true);

    abort.abort();
    await running;
    expect(metrics.subscriptionLive).toBe(false);
  }, 90_000);

  test('following the head on pushed headers costs one eth_getLogs per block, each block read by its hash', async () => {
    const proxy = await startRpcProxy(fx.chain.rpcUrl);
    const { address } = await fx.watchedSession('base');
    const { indexer, metrics } = await fx.createIndexer('base', tokens, {
      rpcUrl: proxy.url,
      env: {
        WS_URLS_BASE_TESTNET: `ws://${new URL(fx.chain.rpcUrl).host}`,
        INDEXER_POLL_INTERVAL_MS: TEN_MINUTES,
        INDEXER_SUBSCRIBED_POLL_INTERVAL_MS: TEN_MINUTES,
      },
    });
    const stop = new AbortController();
    const running = indexer.run(stop.signal);
    try {
      await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(true), { timeout: 15_000, interval: 50 });
      // Two blocks before counting: the read from the node's head that follows subscribing is over by then.
      for (let i = 0; i < 2; i++) {
        await fx.chain.mine(1);
        const mined = await fx.chain.blockNumber();
        await vi.waitFor(() => expect(metrics.cursor).toBe(mined), { timeout: 15_000, interval: 20 });
      }
      proxy.resetCalls();

      // A deposit in every block (base needs 64 confirmations, so none reaches its depth here), each block read
      // before the next is mined: the indexer follows the head block by block.
      const blocks = 20;
      const sent = [];
      for (let i = 0; i < blocks; i++) {
        const transfer = await fx.chain.transfer(tokens.usdc, PAYER, address, BigInt(i + 1) * 1_000_000n);
        sent.push(transfer);
        await vi.waitFor(() => expect(metrics.cursor).toBe(transfer.blockNumber), { timeout: 15_000, interval: 20 });
      }
      const deposits = await depositsOf(fx.db, 'base');
      expect(deposits.map((d) => [d.tx_hash, d.block_number, d.block_hash, d.stage])).toEqual(
        sent.map((t) => [t.hash, t.blockNumber, t.blockHash, 'detected']),
      );
      const perBlock = proxy.totalCalls() / blocks;
      console.log(`[rpc cost] subscribed, calls per block = ${perBlock} ${JSON.stringify(Object.fromEntries(proxy.calls))}`);
      expect(proxy.calls.get('eth_getLogs')).toBe(blocks);
      expect(perBlock).toBeLessThanOrEqual(1.1);
    } finally {
      stop.abort();
      await running;
      await proxy.close();
    }
  }, 90_000);

  test('an endpoint that accepts the connection and never answers is given up on, then subscribed to once it answers', async () => {
    relay.hold();
    const stop = new AbortController();
    const { indexer, metrics } = await fx.createIndexer('arbitrum', tokens, {
      env: { WS_URLS_ARBITRUM_TESTNET: `ws://${relay.address}`, INDEXER_RPC_TIMEOUT_MS: '500', INDEXER_POLL_INTERVAL_MS: TEN_MINUTES },
    });
    const before = relay.accepted;
    const running = indexer.run(stop.signal);
    try {
      // Each attempt times out (500 ms) and the next follows 5 s later: a second connection proves the retry.
      await vi.waitFor(() => expect(relay.accepted).toBeGreaterThanOrEqual(before + 2), { timeout: 20_000, interval: 100 });
      expect(metrics.subscriptionLive).toBe(false);
      relay.release();
      await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(true), { timeout: 20_000, interval: 100 });
    } finally {
      stop.abort();
      await running;
    }
  }, 90_000);
});
