// Solana: a watch the indexer hears of only after reading past the payment's slot is backfilled by reading
// those slots again for that watch alone; the deposit is stored and signalled once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { transfer } from '../../../toolchain/localSolana/splToken';
import { createSolanaFixture, solanaDeposits, type SolanaFixture } from './solanaFixture';

describe('Solana indexer: watches learnt of late are backfilled', () => {
  let fx: SolanaFixture;

  beforeAll(async () => {
    fx = await createSolanaFixture();
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('a credit in slots read before the watch reached the indexer is found on the next reload, once', async () => {
    const { indexer, drain, sender, metrics } = fx.createIndexer();
    fx.chain.produce(2);
    await drain();

    const { sessionId, address } = await fx.watchedSession();
    const sent = await transfer(fx.chain, fx.mints.usdt, fx.payer, [{ to: address, amount: 4_200_000n }]);
    fx.chain.produce(1);
    fx.chain.skip(1);
    fx.chain.produce(3);
    await drain();
    expect(metrics.cursor).toBeGreaterThan(sent.slot);
    expect(await solanaDeposits(fx.db)).toEqual([]);

    indexer.watches.markStale();
    await drain();
    const deposits = await solanaDeposits(fx.db);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({
      session_id: sessionId,
      tx_hash: sent.signature,
      token: 'USDT',
      amount_base_units: '4200000',
      block_number: sent.slot,
    });
    expect(metrics.depositsBackfilled).toBe(1);

    indexer.watches.markStale();
    fx.chain.produce(1);
    await drain();
    expect(await solanaDeposits(fx.db)).toHaveLength(1);
    expect(sender.kinds(sessionId).filter((kind) => kind === 'depositDetected')).toHaveLength(1);
  });
});
