import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { createTronFixture, randomTronAddress, tronDeposits, USDT, type TronFixture } from './tronFixture';

const PAYER = randomTronAddress();
const REQUIRED = CHAIN_FACTS.tron.confirmations;

// The scripted node replaces blocks from a height up with blocks of another branch: the heights come back with
// other ids, as they would after a Tron fork switch, and the transfers in them are gone unless re-mined. The
// tests share one chain key, so each indexer resumes from the cursor the previous test left: signals are
// compared per session.
describe('Tron indexer: reorgs', () => {
  let fx: TronFixture;

  beforeAll(async () => {
    fx = await createTronFixture();
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('a deposit whose block is reorged out before confirmation is withdrawn; its replacement counts once', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const { drain, sender, metrics } = fx.createIndexer();
    await drain();

    const [orphaned] = fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 10_000_000n });
    if (!orphaned) throw new Error('unreachable');
    fx.node.mine(2);
    await drain();
    expect((await tronDeposits(fx.db)).map((d) => [d.tx_hash, d.stage])).toEqual([[orphaned.txId, 'detected']]);

    // The branch holding the deposit is abandoned; the new one is one block shorter, so the cursor block is gone.
    fx.node.reorg(orphaned.blockNumber, { length: 2 });
    await drain();
    expect((await tronDeposits(fx.db)).map((d) => [d.tx_hash, d.stage, d.signalled_stage])).toEqual([
      [orphaned.txId, 'reorged', 'reorged'],
    ]);

    // The customer pays again (another transaction) and the new branch grows past the depth.
    const [replacement] = fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 10_000_001n });
    if (!replacement) throw new Error('unreachable');
    fx.node.mine(REQUIRED);
    await drain();

    const rows = await tronDeposits(fx.db);
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_hash])).toEqual([
      [orphaned.txId, 'reorged', orphaned.blockHash],
      [replacement.txId, 'confirmed', replacement.blockHash],
    ]);
    const [confirmed] = await fx.db.sql<{ total: string }[]>`
      select coalesce(sum(amount_base_units), 0)::text as total from deposits where session_id = ${sessionId} and stage = 'confirmed'`;
    expect(confirmed?.total).toBe('10000001');
    expect(sender.sent.map((s) => [s.signal.kind, s.signal.payload.txHash])).toEqual([
      ['depositDetected', orphaned.txId],
      ['confirmations', orphaned.txId],
      ['depositReorged', orphaned.txId],
      ['depositDetected', replacement.txId],
      ['depositConfirmed', replacement.txId],
    ]);
    expect(metrics.reorgs).toBeGreaterThanOrEqual(1);
  });

  test('a reorg below the cursor walks back to the common ancestor and finds a deposit at a height already passed', async () => {
    const { address } = await fx.watchedSession();
    const { drain, metrics } = fx.createIndexer();
    fx.node.mine(3);
    await drain();
    const forkPoint = fx.node.head();
    fx.node.mine(4);
    await drain();
    expect(metrics.cursor).toBe(forkPoint + 4n);

    // The new branch is longer than the old one and carries a deposit at a height the indexer already passed.
    fx.node.reorg(forkPoint + 1n, { length: 0 });
    const [deposit] = fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 4_000_000n });
    fx.node.mine(6);
    expect(deposit?.blockNumber).toBe(forkPoint + 1n);
    await drain();
    expect(metrics.reorgs).toBe(1);
    expect((await tronDeposits(fx.db)).filter((d) => d.to_address === address).map((d) => [d.tx_hash, d.stage])).toEqual([
      [deposit?.txId, 'detected'],
    ]);
    const [cursor] = await fx.db.sql<
      { block_number: bigint }[]
    >`select block_number from indexer_cursors where chain = 'tron' and network = 'testnet'`;
    expect(cursor?.block_number).toBe(fx.node.head());
  });

  test('a transfer carried into the replacing block keeps its identity and is confirmed once at its new height', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const { drain, sender } = fx.createIndexer();
    await drain();
    const [sent] = fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 4_200_000n });
    if (!sent) throw new Error('unreachable');
    fx.node.mine(2);
    await drain();

    fx.node.reorg(sent.blockNumber, { length: 4, carry: true });
    await drain();
    fx.node.mine(REQUIRED);
    await drain();

    const rows = (await tronDeposits(fx.db)).filter((d) => d.to_address === address);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tx_hash: sent.txId, log_index: 0, stage: 'confirmed', block_number: sent.blockNumber });
    expect(rows[0]?.block_hash).not.toBe(sent.blockHash);
    // Withdrawn from the old block, detected in the new one, confirmed once (progress signals in between aside).
    expect(sender.kinds(sessionId).filter((k) => k !== 'confirmations')).toEqual([
      'depositDetected',
      'depositReorged',
      'depositDetected',
      'depositConfirmed',
    ]);
  });
});
