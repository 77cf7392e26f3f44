import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { createTronFixture, randomTronAddress, tronDeposits, USDC, USDT, type TronFixture } from './tronFixture';

const PAYER = randomTronAddress();

describe('Tron indexer: RPC failures and RPC cost', () => {
  let fx: TronFixture;

  beforeAll(async () => {
    // A node that refuses eth_getLogs over more than 3 blocks, so catch-up also goes through range splitting.
    fx = await createTronFixture({ maxBlockRange: 3 });
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('errors, rate limits, timeouts and an outage lose nothing and count nothing twice', async () => {
    const sessions = [await fx.watchedSession(), await fx.watchedSession(), await fx.watchedSession()];
    const { indexer, sender, metrics } = fx.createIndexer({
      env: { INDEXER_RPC_TIMEOUT_MS: '300', INDEXER_RPC_ATTEMPTS: '3', INDEXER_POLL_INTERVAL_MS: '50', INDEXER_MAX_LOG_RANGE: '8' },
    });
    let outage = false;
    // Roughly one request in three fails: 503s, 429s, java-tron's own -32603 and requests never answered.
    fx.node.setPolicy((_method, index) => {
      if (outage) return { status: 503 };
      if (index % 7 === 3) return 'hang';
      if (index % 5 === 1) return { status: 503 };
      if (index % 5 === 2) return { status: 429 };
      if (index % 11 === 4) return { rpcError: { code: -32603, message: 'internal error' } };
      return 'answer';
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
        const [transfer] = fx.node.transfer({
          contract: i % 2 ? USDT : USDC,
          from: PAYER,
          to: session.address,
          amount: BigInt(i + 1) * 1_000_000n + 1n,
        });
        sent.push(transfer);
        fx.node.mine(1 + (i % 3));
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
      fx.node.mine(CHAIN_FACTS.tron.confirmations);
      await vi.waitFor(
        async () => {
          const rows = await tronDeposits(fx.db);
          expect(rows.filter((r) => r.signalled_stage === 'confirmed')).toHaveLength(12);
        },
        { timeout: 30_000, interval: 200 },
      );
      const rows = await tronDeposits(fx.db);
      expect(rows.map((r) => [r.tx_hash, r.log_index, r.amount_base_units])).toEqual(
        sent.map((s, i) => [s?.txId, s?.logIndex, (BigInt(i + 1) * 1_000_000n + 1n).toString()]),
      );
      const detected = sender.sent.filter((s) => s.signal.kind === 'depositDetected').map((s) => s.signal.payload.txHash);
      expect(detected.sort()).toEqual(sent.map((s) => s?.txId).sort());
      expect(sender.sent.filter((s) => s.signal.kind === 'depositConfirmed')).toHaveLength(12);
      expect(metrics.rpcErrors.timeout).toBeGreaterThan(0);
      expect(metrics.rpcErrors['rate-limited']).toBeGreaterThan(0);
      expect(metrics.rpcErrors.server).toBeGreaterThan(0);
      expect(metrics.rpcErrors['range-too-large']).toBeGreaterThan(0);
      expect(metrics.tickErrors).toBeGreaterThan(0);
      expect(fx.node.failures).toBeGreaterThan(10);
    } finally {
      abort.abort();
      await running;
      fx.node.setPolicy(() => 'answer');
    }
  });

  test('RPC calls per block are the same with 10 and with 1,000 watched addresses', async () => {
    const { drain, indexer } = fx.createIndexer({ env: { INDEXER_MAX_LOG_RANGE: '3' } });
    const watched: string[] = [];
    for (let i = 0; i < 10; i++) watched.push((await fx.watchedSession()).address);
    indexer.watches.markStale();
    await drain();

    // Following the head block by block, a deposit to a watched address in every other block and a transfer to
    // an unwatched one in the rest; then the depth, so each phase also confirms all of its own deposits.
    const required = CHAIN_FACTS.tron.confirmations;
    const blocks = 40;
    const follow = async () => {
      fx.node.resetCalls();
      for (let i = 0; i < blocks; i++) {
        const to = i % 2 === 0 ? (watched[i % watched.length] as string) : randomTronAddress();
        fx.node.transfer({ contract: USDT, from: PAYER, to, amount: 1_000_000n });
        await drain();
      }
      fx.node.mine(required);
      await drain();
      return Object.fromEntries(fx.node.calls);
    };
    const before = (await tronDeposits(fx.db)).length;
    const few = await follow();
    expect(indexer.watches.size).toBeLessThan(50);

    for (let batch = 0; batch < 99; batch++) await Promise.all(Array.from({ length: 10 }, () => fx.watchedSession()));
    indexer.watches.markStale();
    await drain();
    const many = await follow();
    expect(indexer.watches.size).toBeGreaterThanOrEqual(1000);
    expect((await tronDeposits(fx.db)).length - before).toBe(blocks);

    const total = (calls: Record<string, number>) => Object.values(calls).reduce((sum, n) => sum + n, 0);
    console.log(
      `[rpc cost] tron calls per block: ${indexer.watches.size} watched = ${total(many) / (blocks + required)} ${JSON.stringify(many)}; fewer watched = ${total(few) / (blocks + required)} ${JSON.stringify(few)}`,
    );
    expect(many).toEqual(few);
    // One eth_getLogs per block followed, plus the catch-up over the depth in ranges of three.
    expect(many.eth_getLogs).toBe(blocks + Math.ceil(required / 3));
    expect(total(many) / (blocks + required)).toBeLessThanOrEqual(4);
  });
});
