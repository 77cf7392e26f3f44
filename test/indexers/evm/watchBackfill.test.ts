// A watch the indexer learns of only after it scanned past the payment (its NOTIFY was lost while the LISTEN
// connection was down, or arrived late): the reload or the late notification brings the watch in and the
// indexer re-scans the blocks since the watch was written, so the deposit is found, once.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { listenForWatchChanges } from '../../../indexers/core/watchSet';
import { createIndexerFixture, deployTokens, depositsOf, type IndexerFixture, type Tokens } from './indexerFixture';

const PAYER = 1;

describe('EVM indexer: watches learnt of late are backfilled', () => {
  let fx: IndexerFixture;
  let tokens: Tokens;

  beforeAll(async () => {
    fx = await createIndexerFixture();
    tokens = await deployTokens(fx.chain, 6);
    await fx.chain.mint(tokens.usdc, fx.chain.account(PAYER).address, 10n ** 15n);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  async function watchRow(sessionId: string) {
    const [row] = await fx.db.sql<{ indexed_from: bigint | null; backfilled_at: Date | null }[]>`
      select indexed_from, backfilled_at from deposit_watches where session_id = ${sessionId}`;
    return row;
  }

  test('a deposit in blocks scanned before the watch reached the indexer is found on the next reload, once', async () => {
    const { indexer, drain, sender, metrics } = await fx.createIndexer('optimism', tokens);
    await fx.chain.mine(2);
    await drain();
    const cursorAtWatch = metrics.cursor;

    // No LISTEN here and a 60 s reload: the indexer does not hear of this watch, as when a NOTIFY is lost.
    const { sessionId, address } = await fx.watchedSession('optimism');
    expect(await watchRow(sessionId)).toEqual({ indexed_from: cursorAtWatch, backfilled_at: null });
    const sent = await fx.chain.transfer(tokens.usdc, PAYER, address, 7_000_000n);
    await fx.chain.mine(3);
    await drain();
    expect(metrics.cursor).toBeGreaterThan(sent.blockNumber);
    expect(await depositsOf(fx.db, 'optimism')).toEqual([]);

    // The reload (periodic, or on reconnecting LISTEN) brings the watch in; its blocks are read again.
    indexer.watches.markStale();
    await drain();
    const deposits = await depositsOf(fx.db, 'optimism');
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({
      session_id: sessionId,
      tx_hash: sent.hash,
      log_index: sent.logIndex,
      block_number: sent.blockNumber,
      block_hash: sent.blockHash,
    });
    expect(metrics.depositsBackfilled).toBe(1);
    expect((await watchRow(sessionId))?.backfilled_at).toBeInstanceOf(Date);

    // Later transfers come through the forward scan; another reload re-reads nothing.
    const second = await fx.chain.transfer(tokens.usdc, PAYER, address, 1_000_000n);
    indexer.watches.markStale();
    await drain();
    expect((await depositsOf(fx.db, 'optimism')).map((d) => d.tx_hash)).toEqual([sent.hash, second.hash]);
    expect(metrics.depositsBackfilled).toBe(1);
    expect(sender.kinds(sessionId).filter((kind) => kind === 'depositDetected')).toHaveLength(2);
  });

  test('a restarted indexer backfills a watch its predecessor never heard of, and nothing else', async () => {
    const first = await fx.createIndexer('arbitrum', tokens);
    await first.drain();
    const covered = await fx.watchedSession('arbitrum');
    first.indexer.watches.markStale();
    await first.drain();
    expect((await watchRow(covered.sessionId))?.backfilled_at).toBeInstanceOf(Date);

    const missed = await fx.watchedSession('arbitrum');
    const sent = await fx.chain.transfer(tokens.usdc, PAYER, missed.address, 3_000_000n);
    await fx.chain.mine(2);
    await first.drain();
    expect(await depositsOf(fx.db, 'arbitrum')).toEqual([]);

    // A new process resumes from the stored cursor, already past the transfer.
    const second = await fx.createIndexer('arbitrum', tokens);
    await second.drain();
    const deposits = await depositsOf(fx.db, 'arbitrum');
    expect(deposits.map((d) => [d.session_id, d.tx_hash])).toEqual([[missed.sessionId, sent.hash]]);
    expect(second.metrics.depositsBackfilled).toBe(1);
    // Detected once, then its depth (three blocks) like any deposit.
    expect(second.sender.kinds(missed.sessionId)).toEqual(['depositDetected', 'confirmations']);
  });

  test('a watch heard of through NOTIFY while the indexer runs comes in alone, and its deposit is found once', async () => {
    const { indexer, drain, sender, metrics } = await fx.createIndexer('base', tokens);
    const listener = await listenForWatchChanges(fx.db.sql, [indexer.watches]);
    try {
      // Listening begins with the full load: notifications before it were not heard.
      await drain();
      const reloads = vi.spyOn(indexer.watches, 'markStale');
      const changes = vi.spyOn(indexer.watches, 'markChanged');
      const { sessionId, address } = await fx.watchedSession('base');
      await vi.waitFor(() => expect(changes).toHaveBeenCalledWith(sessionId), { timeout: 5_000, interval: 20 });
      const sent = await fx.chain.transfer(tokens.usdc, PAYER, address, 2_000_000n);
      await drain();
      expect((await depositsOf(fx.db, 'base')).map((d) => [d.session_id, d.tx_hash])).toEqual([[sessionId, sent.hash]]);
      expect(metrics.depositsBackfilled).toBe(0);
      expect(sender.kinds(sessionId).filter((kind) => kind === 'depositDetected')).toHaveLength(1);
      expect(reloads).not.toHaveBeenCalled();
    } finally {
      await listener.unlisten();
    }
  });

  test('a notification that arrives after the indexer scanned past the deposit brings the watch in, and the deposit is backfilled once', async () => {
    const { indexer, drain, sender, metrics } = await fx.createIndexer('polygon', tokens);
    await drain();
    const { sessionId, address } = await fx.watchedSession('polygon');
    const sent = await fx.chain.transfer(tokens.usdc, PAYER, address, 4_000_000n);
    await fx.chain.mine(2);
    await drain();
    expect(await depositsOf(fx.db, 'polygon')).toEqual([]);

    indexer.watches.markChanged(sessionId);
    await drain();
    await drain();
    expect((await depositsOf(fx.db, 'polygon')).map((d) => [d.session_id, d.tx_hash])).toEqual([[sessionId, sent.hash]]);
    expect(metrics.depositsBackfilled).toBe(1);
    expect(sender.kinds(sessionId).filter((kind) => kind === 'depositDetected')).toHaveLength(1);
  });
});
