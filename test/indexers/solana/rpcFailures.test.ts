import type { Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { startSolanaRpcServer, type SolanaRpcServer } from '../../../toolchain/localSolana/solanaRpcServer';
import { fundedSigner, transfer, type SentTransaction } from '../../../toolchain/localSolana/splToken';
import { createSolanaFixture, solanaDeposits, type SolanaFixture } from './solanaFixture';

describe('Solana indexer: RPC failures and RPC cost', () => {
  let fx: SolanaFixture;
  const servers: SolanaRpcServer[] = [];
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    fx = await createSolanaFixture();
  });

  afterAll(async () => {
    await Promise.allSettled([...servers.map((s) => s.close()), ...databases.map((d) => d.drop())]);
    await fx?.stop();
  });

  async function server(): Promise<SolanaRpcServer> {
    const started = await startSolanaRpcServer(fx.chain);
    servers.push(started);
    return started;
  }

  test('errors, rate limits, timeouts and an outage lose nothing and count nothing twice', async () => {
    const flaky = await server();
    const sessions = [await fx.watchedSession(), await fx.watchedSession(), await fx.watchedSession()];
    const { indexer, sender, metrics } = fx.createIndexer({
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
      const sent: SentTransaction[] = [];
      for (let i = 0; i < 12; i++) {
        const session = sessions[i % sessions.length];
        if (!session) throw new Error('unreachable');
        if (i === 5) outage = true;
        if (i === 9) outage = false;
        const mint = i % 2 ? fx.mints.usdt : fx.mints.usdc;
        sent.push(await transfer(fx.chain, mint, fx.payer, [{ to: session.address, amount: BigInt(i + 1) * 1_000_000n + 1n }]));
        fx.chain.produce(1 + (i % 3));
        if (i % 4 === 1) fx.chain.skip(1);
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
      fx.chain.produce(CHAIN_FACTS.solana.confirmations);
      await vi.waitFor(
        async () => {
          const rows = await solanaDeposits(fx.db);
          expect(rows.filter((r) => r.signalled_stage === 'confirmed')).toHaveLength(12);
        },
        { timeout: 60_000, interval: 200 },
      );
      const rows = await solanaDeposits(fx.db);
      expect(rows.map((r) => [r.tx_hash, r.block_number, r.amount_base_units])).toEqual(
        sent.map((s, i) => [s.signature, s.slot, (BigInt(i + 1) * 1_000_000n + 1n).toString()]),
      );
      const detected = sender.sent.filter((s) => s.signal.kind === 'depositDetected').map((s) => s.signal.payload.txHash);
      expect(detected.sort()).toEqual(sent.map((s) => s.signature).sort());
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
  }, 90_000);

  test('RPC calls per slot are the same with 10 and with 1,000 watched addresses', async () => {
    const [few, many] = [await server(), await server()];
    const other = await createTestDatabase();
    databases.push(other);
    const shared: Address[] = [];
    for (let i = 0; i < 10; i++) {
      const { address } = await fx.watchedSession();
      await fx.watchedSession({ address, db: other });
      shared.push(address);
    }
    for (let batch = 0; batch < 99; batch++) {
      await Promise.all(Array.from({ length: 10 }, () => fx.watchedSession({ db: other })));
    }
    const startSlot = fx.chain.currentSlot;
    const small = fx.createIndexer({ rpcUrl: few.url, startSlot });
    const large = fx.createIndexer({ rpcUrl: many.url, startSlot, db: other });
    await small.drain();
    await large.drain();
    few.resetCalls();
    many.resetCalls();

    // Following the tip slot by slot, a deposit to a watched wallet in every other slot, a transfer to an
    // unwatched one in the rest, and a skipped slot now and then.
    const stranger = await fundedSigner(fx.chain, 1n);
    const slots = 40;
    for (let i = 0; i < slots; i++) {
      const to = i % 2 === 0 ? (shared[i % shared.length] as Address) : stranger.address;
      await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to, amount: 1_000_000n }]);
      if (i % 10 === 5) fx.chain.skip(1);
      fx.chain.produce(1);
      await small.drain();
      await large.drain();
    }
    // The 10 shared wallets, plus the previous test's sessions in the same database.
    expect(small.indexer.watches.size).toBeLessThan(20);
    expect(large.indexer.watches.size).toBe(1000);
    const count = async (db: TestDatabase) =>
      (
        await db.sql<
          { n: number }[]
        >`select count(*)::int as n from deposits where chain = 'solana' and block_number >= ${startSlot.toString()}`
      )[0]?.n;
    expect(await count(fx.db)).toBe(slots / 2);
    expect(await count(other)).toBe(slots / 2);

    const perSlot = (s: SolanaRpcServer) => s.totalCalls() / slots;
    console.log(
      `[rpc cost] calls per slot: 10 watched = ${perSlot(few)} ${JSON.stringify(Object.fromEntries(few.calls))}; ` +
        `1000 watched = ${perSlot(many)} ${JSON.stringify(Object.fromEntries(many.calls))}`,
    );
    expect(Object.fromEntries(many.calls)).toEqual(Object.fromEntries(few.calls));
    expect(many.calls.get('getSlot')).toBeGreaterThanOrEqual(slots);
    expect(perSlot(many)).toBeLessThanOrEqual(3);
  });
});
