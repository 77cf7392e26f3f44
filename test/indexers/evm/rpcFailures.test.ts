import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { startRpcProxy, type JsonRpcRequest, type RpcProxy } from '../../support/evm/rpcProxy';
import { createIndexerFixture, deployTokens, depositsOf, type IndexerFixture, type Tokens } from './indexerFixture';

const PAYER = 1;

describe('EVM indexer: RPC failures and RPC cost', () => {
  let fx: IndexerFixture;
  let tokens: Tokens;
  const proxies: RpcProxy[] = [];

  beforeAll(async () => {
    fx = await createIndexerFixture();
    tokens = await deployTokens(fx.chain, 18);
    await fx.chain.mint(tokens.usdc, fx.chain.account(PAYER).address, 10n ** 30n);
    await fx.chain.mint(tokens.usdt, fx.chain.account(PAYER).address, 10n ** 30n);
  });

  afterAll(async () => {
    await Promise.allSettled(proxies.map((p) => p.close()));
    await fx?.stop();
  });

  async function proxy(): Promise<RpcProxy> {
    const started = await startRpcProxy(fx.chain.rpcUrl);
    proxies.push(started);
    return started;
  }

  test('errors, rate limits, timeouts and an outage lose nothing and count nothing twice', async () => {
    const flaky = await proxy();
    const sessions = [await fx.watchedSession('bsc'), await fx.watchedSession('bsc'), await fx.watchedSession('bsc')];
    const { indexer, sender, metrics } = await fx.createIndexer('bsc', tokens, {
      rpcUrl: flaky.url,
      env: { INDEXER_RPC_TIMEOUT_MS: '300', INDEXER_RPC_ATTEMPTS: '3', INDEXER_POLL_INTERVAL_MS: '50', INDEXER_MAX_LOG_RANGE: '4' },
    });
    let outage = false;
    // Roughly one request in three fails: 503s, 429s and requests that never get an answer.
    flaky.setPolicy((_method, index) => {
      if (outage) return { status: 503 };
      if (index % 7 === 3) return 'hang';
      if (index % 5 === 1) return { status: 503 };
      if (index % 5 === 2) return { status: 429 };
      return 'forward';
    });
    const abort = new AbortController();
    const running = indexer.run(abort.signal);
    try {
      const sent = [];
      for (let i = 0; i < 12; i++) {
        const session = sessions[i % sessions.length];
        if (!session) throw new Error('unreachable');
        if (i === 5) outage = true;
        if (i === 9) outage = false;
        sent.push(await fx.chain.transfer(i % 2 ? tokens.usdt : tokens.usdc, PAYER, session.address, BigInt(i + 1) * 10n ** 18n + 1n));
        await fx.chain.mine(1 + (i % 3));
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
      await fx.chain.mine(CHAIN_FACTS.bsc.confirmations);
      await vi.waitFor(
        async () => {
          const rows = await depositsOf(fx.db, 'bsc');
          expect(
            rows.filter((r) => r.signalled_stage === 'confirmed'),
            JSON.stringify({ rows, metrics }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
          ).toHaveLength(12);
        },
        { timeout: 30_000, interval: 200 },
      );
      const rows = await depositsOf(fx.db, 'bsc');
      expect(rows.map((r) => [r.tx_hash, r.log_index, r.amount_base_units])).toEqual(
        sent.map((s, i) => [s.hash, s.logIndex, (BigInt(i + 1) * 10n ** 18n + 1n).toString()]),
      );
      const detected = sender.sent.filter((s) => s.signal.kind === 'depositDetected').map((s) => s.signal.payload.txHash);
      expect(detected.sort()).toEqual(sent.map((s) => s.hash).sort());
      expect(sender.sent.filter((s) => s.signal.kind === 'depositConfirmed')).toHaveLength(12);
      expect(metrics.rpcErrors.timeout).toBeGreaterThan(0);
      expect(metrics.rpcErrors['rate-limited']).toBeGreaterThan(0);
      expect(metrics.rpcErrors.server).toBeGreaterThan(0);
      expect(metrics.tickErrors).toBeGreaterThan(0);
      expect(flaky.failures).toBeGreaterThan(10);
    } finally {
      abort.abort();
      await running;
    }
  });

  test('a pooled node behind the head does not make the indexer skip the newest block', async () => {
    const pool = await proxy();
    const { sessionId, address } = await fx.watchedSession('ethereum');
    const { drain, sender, metrics } = await fx.createIndexer('ethereum', tokens, { rpcUrl: pool.url });
    await drain();
    const sent = await fx.chain.transfer(tokens.usdt, PAYER, address, 5n * 10n ** 18n);
    // The first eth_getLogs lands on a node that has not imported the new block yet. Asked for a range, such a
    // node answers [] (the block is beyond its head); asked by block hash, it errs and the call is retried.
    const lagging = (request: JsonRpcRequest) => {
      const filter = (request.params?.[0] ?? {}) as { blockHash?: string };
      return filter.blockHash ? { error: { code: -32000, message: 'unknown block' } } : { result: [] };
    };
    let answeredByLaggingNode = false;
    pool.setPolicy((method) => {
      if (method !== 'eth_getLogs' || answeredByLaggingNode) return 'forward';
      answeredByLaggingNode = true;
      return { respond: lagging };
    });
    await drain();
    expect(answeredByLaggingNode).toBe(true);
    const deposits = (await depositsOf(fx.db, 'ethereum')).filter((d) => d.session_id === sessionId);
    expect(deposits.map((d) => [d.tx_hash, d.block_number])).toEqual([[sent.hash, sent.blockNumber]]);
    expect(metrics.rpcErrors.server).toBeGreaterThanOrEqual(1);
    expect(sender.kinds(sessionId)).toEqual(['depositDetected']);
  });

  test('several new blocks at once: the newest is still read by hash, so a node without it cannot hide its deposits', async () => {
    const pool = await proxy();
    const { sessionId, address } = await fx.watchedSession('polygon');
    const { drain, sender } = await fx.createIndexer('polygon', tokens, { rpcUrl: pool.url });
    await drain();
    const sent = [];
    for (const amount of [1n, 2n, 3n]) sent.push(await fx.chain.transfer(tokens.usdc, PAYER, address, amount * 10n ** 18n));
    const head = await fx.chain.blockNumber();
    expect(sent.map((t) => t.blockNumber)).toEqual([head - 2n, head - 1n, head]);
    // Each eth_getLogs lands on a node one block behind: it lacks the head, and answers a range reaching it with
    // nothing (as for a range beyond its own head) and a query for it by hash with an error, once.
    let hashQueriesRefused = 0;
    pool.setPolicy((method) => {
      if (method !== 'eth_getLogs') return 'forward';
      return {
        respond: (request: JsonRpcRequest) => {
          const filter = (request.params?.[0] ?? {}) as { blockHash?: string; toBlock?: string };
          if (filter.blockHash && hashQueriesRefused === 0) {
            hashQueriesRefused += 1;
            return { error: { code: -32000, message: 'unknown block' } };
          }
          if (filter.toBlock !== undefined && BigInt(filter.toBlock) >= head) return { result: [] };
          return { forward: true };
        },
      };
    });
    await drain();
    const deposits = (await depositsOf(fx.db, 'polygon')).filter((d) => d.session_id === sessionId);
    expect(deposits.map((d) => d.tx_hash)).toEqual(sent.map((t) => t.hash));
    expect(hashQueriesRefused).toBe(1);
    expect(sender.kinds(sessionId).filter((kind) => kind === 'depositDetected')).toHaveLength(3);
  });

  test('RPC calls per block are the same with 10 and with 1,000 watched addresses', async () => {
    const [few, many] = [await proxy(), await proxy()];
    const shared = [];
    for (let i = 0; i < 10; i++) {
      const { address } = await fx.watchedSession('optimism');
      await fx.watchedSession('base', { address });
      shared.push(address);
    }
    for (let batch = 0; batch < 99; batch++) {
      await Promise.all(Array.from({ length: 10 }, () => fx.watchedSession('base')));
    }
    // optimism and base need the same depth (64), so both do the same confirmation work.
    expect(CHAIN_FACTS.optimism.confirmations).toBe(CHAIN_FACTS.base.confirmations);
    const startBlock = (await fx.chain.blockNumber()) + 1n;
    const small = await fx.createIndexer('optimism', tokens, { rpcUrl: few.url, startBlock });
    const large = await fx.createIndexer('base', tokens, { rpcUrl: many.url, startBlock });
    await small.drain();
    await large.drain();
    few.resetCalls();
    many.resetCalls();

    // Following the head block by block, with a deposit to a watched address in every other block and a
    // transfer to an unwatched one in the rest.
    const blocks = 40;
    for (let i = 0; i < blocks; i++) {
      const to = i % 2 === 0 ? (shared[i % shared.length] as `0x${string}`) : fx.chain.account(9).address;
      await fx.chain.transfer(tokens.usdc, PAYER, to, 10n ** 18n);
      await small.drain();
      await large.drain();
    }
    expect(small.indexer.watches.size).toBe(10);
    expect(large.indexer.watches.size).toBe(1000);
    expect((await depositsOf(fx.db, 'optimism')).length).toBe(blocks / 2);
    expect((await depositsOf(fx.db, 'base')).length).toBe(blocks / 2);

    const perBlock = (p: RpcProxy) => p.totalCalls() / blocks;
    console.log(
      `[rpc cost] calls per block: 10 watched = ${perBlock(few)} ${JSON.stringify(Object.fromEntries(few.calls))}; ` +
        `1000 watched = ${perBlock(many)} ${JSON.stringify(Object.fromEntries(many.calls))}`,
    );
    expect(many.totalCalls()).toBe(few.totalCalls());
    expect(Object.fromEntries(many.calls)).toEqual(Object.fromEntries(few.calls));
    expect(many.calls.get('eth_getLogs')).toBe(blocks);
    expect(perBlock(many)).toBeLessThanOrEqual(4);
  });
});
