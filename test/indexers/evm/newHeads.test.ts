// WS_URLS_<CHAIN>_<NETWORK>: the indexer subscribes to new heads on the local Hardhat node's websocket and reads
// each block as it arrives. Polling is set to ten minutes here, so only the subscription can explain a deposit
// seen within seconds; after the connection is cut the indexer subscribes again by itself.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
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
      env: { WS_URLS_POLYGON_TESTNET: `ws://${relay.address}`, INDEXER_POLL_INTERVAL_MS: TEN_MINUTES, INDEXER_SUBSCRIBED_POLL_INTERVAL_MS: TEN_MINUTES },
    });
    const running = indexer.run(abort.signal);
    await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(true), { timeout: 15_000, interval: 50 });
    await vi.waitFor(() => expect(metrics.lastTickAt).toBeDefined(), { timeout: 15_000, interval: 50 });

    const first = await fx.chain.transfer(tokens.usdc, PAYER, address, 2_000_000n);
    await vi.waitFor(async () => expect((await depositsOf(fx.db, 'polygon')).map((d) => d.tx_hash)).toEqual([first.hash]), { timeout: 15_000, interval: 100 });

    relay.dropAll();
    await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(false), { timeout: 15_000, interval: 20 });
    await vi.waitFor(() => expect(metrics.subscriptionLive).toBe(true), { timeout: 30_000, interval: 100 });
    expect(relay.accepted).toBeGreaterThanOrEqual(2);

    const second = await fx.chain.transfer(tokens.usdc, PAYER, address, 3_000_000n);
    await vi.waitFor(async () => expect((await depositsOf(fx.db, 'polygon')).map((d) => d.tx_hash)).toEqual([first.hash, second.hash]), { timeout: 15_000, interval: 100 });
    const deposits = await depositsOf(fx.db, 'polygon');
    expect(deposits.every((d) => d.session_id === sessionId)).toBe(true);

    abort.abort();
    await running;
    expect(metrics.subscriptionLive).toBe(false);
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
