import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { associatedTokenAccount, sendInstructions, transfer } from '../../../toolchain/localSolana/splToken';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { createSolanaFixture, solanaDeposits, type SolanaFixture } from './solanaFixture';

const REQUIRED = CHAIN_FACTS.solana.confirmations;

// chain.reorg(point, 'skip') abandons the blocks from the fork point on; their slots then read as skipped and the
// cluster goes on from a block below them, as when a leader builds on an older parent. 'replace' produces the
// same slots again with other blockhashes.
describe('Solana indexer: forks', () => {
  let fx: SolanaFixture;

  beforeAll(async () => {
    fx = await createSolanaFixture();
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('a deposit whose slot is abandoned before confirmation is withdrawn; the replacement payment counts once', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const { drain, sender, metrics } = fx.createIndexer();
    await drain();

    const point = fx.chain.snapshot();
    const orphaned = await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to: address, amount: 10_000_000n }]);
    const [orphanedBlock] = fx.chain.produce(3);
    await drain();
    expect((await solanaDeposits(fx.db)).map((d) => [d.tx_hash, d.stage])).toEqual([[orphaned.signature, 'detected']]);

    fx.chain.reorg(point, 'skip');
    fx.chain.produce(1);
    await drain();
    expect((await solanaDeposits(fx.db)).map((d) => [d.tx_hash, d.stage, d.signalled_stage])).toEqual([
      [orphaned.signature, 'reorged', 'reorged'],
    ]);
    expect(metrics.reorgs).toBe(1);

    const replacement = await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to: address, amount: 10_000_001n }]);
    const [replacementBlock] = fx.chain.produce(REQUIRED);
    await drain();

    const rows = await solanaDeposits(fx.db);
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_hash])).toEqual([
      [orphaned.signature, 'reorged', orphanedBlock?.blockhash],
      [replacement.signature, 'confirmed', replacementBlock?.blockhash],
    ]);
    const [confirmed] = await fx.db.sql<{ total: string }[]>`
      select coalesce(sum(amount_base_units), 0)::text as total from deposits where session_id = ${sessionId} and stage = 'confirmed'`;
    expect(confirmed?.total).toBe('10000001');
    const steps = sender.sent.filter((s) => s.signal.kind !== 'confirmations').map((s) => [s.signal.kind, s.signal.payload.txHash]);
    expect(steps).toEqual([
      ['depositDetected', orphaned.signature],
      ['depositReorged', orphaned.signature],
      ['depositDetected', replacement.signature],
      ['depositConfirmed', replacement.signature],
    ]);
  });

  test('the same transaction in a block with another blockhash at the same slot is withdrawn, detected again and confirmed once', async () => {
    const { address } = await fx.watchedSession();
    const { drain, sender } = fx.createIndexer();
    await drain();

    // One signed transaction, included on both branches: same signature and account index, other blockhash.
    const point = fx.chain.snapshot();
    const source = await associatedTokenAccount(fx.payer.address, fx.mints.usdc.address);
    const destination = await associatedTokenAccount(address, fx.mints.usdc.address);
    const instructions = [
      getCreateAssociatedTokenIdempotentInstruction({ payer: fx.payer, ata: destination, owner: address, mint: fx.mints.usdc.address }),
      getTransferCheckedInstruction({
        source,
        mint: fx.mints.usdc.address,
        destination,
        authority: fx.payer,
        amount: 3_000_000n,
        decimals: 6,
      }),
    ];
    const first = await sendInstructions(fx.chain, fx.payer, instructions);
    const [firstBlock] = fx.chain.produce(3);
    await drain();

    fx.chain.reorg(point, 'replace');
    const again = await sendInstructions(fx.chain, fx.payer, instructions);
    expect(again.signature).toBe(first.signature);
    expect(again.slot).toBe(first.slot);
    const [againBlock] = fx.chain.produce(1);
    expect(againBlock?.blockhash).not.toBe(firstBlock?.blockhash);
    // The node is now behind the indexer's cursor: nothing is decided on a missing answer.
    await drain();
    expect((await solanaDeposits(fx.db)).filter((d) => d.tx_hash === first.signature).map((d) => d.stage)).toEqual(['detected']);

    fx.chain.produce(3);
    await drain();
    let rows = (await solanaDeposits(fx.db)).filter((d) => d.tx_hash === first.signature);
    expect(rows.map((d) => [d.stage, d.block_hash])).toEqual([['detected', againBlock?.blockhash]]);

    fx.chain.produce(REQUIRED);
    await drain();
    rows = (await solanaDeposits(fx.db)).filter((d) => d.tx_hash === first.signature);
    expect(rows.map((d) => [d.stage, d.block_number])).toEqual([['confirmed', first.slot]]);
    const steps = sender.sent.filter((s) => s.signal.kind !== 'confirmations');
    expect(steps.map((s) => s.signal.kind)).toEqual(['depositDetected', 'depositReorged', 'depositDetected', 'depositConfirmed']);
    const detections = steps
      .filter((s) => s.signal.kind === 'depositDetected')
      .map((s) => (s.signal.payload as { blockHash: string }).blockHash);
    expect(detections).toEqual([firstBlock?.blockhash, againBlock?.blockhash]);
    expect(new Set(sender.sent.map((s) => s.requestId)).size).toBe(sender.sent.length);
  });

  test('a fork below the cursor with no deposit in it walks back to the common ancestor and rescans', async () => {
    const { address } = await fx.watchedSession();
    const { drain, metrics } = fx.createIndexer();
    fx.chain.produce(3);
    await drain();
    const point = fx.chain.snapshot();
    fx.chain.produce(20);
    await drain();

    fx.chain.reorg(point, 'replace');
    // The new branch carries a deposit at a slot the indexer already passed, and outgrows the old one.
    const deposit = await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to: address, amount: 4_000_000n }]);
    expect(deposit.slot).toBe(point.slot);
    fx.chain.produce(25);
    await drain();
    expect(metrics.reorgs).toBe(1);
    const rows = (await solanaDeposits(fx.db)).filter((d) => d.to_address === address);
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_number])).toEqual([[deposit.signature, 'detected', point.slot]]);
    const [cursor] = await fx.db.sql<
      { block_number: bigint }[]
    >`select block_number from indexer_cursors where chain = 'solana' and network = 'testnet'`;
    expect(cursor?.block_number).toBe(fx.chain.tip());
  });
});
