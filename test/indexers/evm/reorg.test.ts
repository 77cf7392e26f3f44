import { erc20Abi, encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { createIndexerFixture, deployTokens, depositsOf, type IndexerFixture, type Tokens } from './indexerFixture';

const PAYER = 1;

// evm_revert to a snapshot taken before the deposit's block, then new blocks on top, is a reorg as the indexer
// sees one: the heights come back with other hashes and the deposit's block is gone from the canonical chain.
describe('EVM indexer: reorgs', () => {
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

  test('a deposit whose block is reorged out before confirmation is withdrawn; its replacement counts once', async () => {
    const { sessionId, address } = await fx.watchedSession('base');
    const { drain, sender, metrics } = await fx.createIndexer('base', tokens);
    await drain();

    const snapshot = await fx.chain.snapshot();
    const orphaned = await fx.chain.transfer(tokens.usdc, PAYER, address, 10_000_000n);
    await fx.chain.mine(2);
    await drain();
    expect((await depositsOf(fx.db, 'base')).map((d) => [d.tx_hash, d.stage])).toEqual([[orphaned.hash, 'detected']]);

    // The chain falls back below the cursor: the cursor's block is gone.
    await fx.chain.revert(snapshot);
    await drain();
    expect((await depositsOf(fx.db, 'base')).map((d) => [d.tx_hash, d.stage, d.signalled_stage])).toEqual([
      [orphaned.hash, 'reorged', 'reorged'],
    ]);

    // The customer pays again (another transaction); the new branch outgrows the old one.
    const replacement = await fx.chain.transfer(tokens.usdc, PAYER, address, 10_000_001n);
    await fx.chain.mine(CHAIN_FACTS.base.confirmations);
    await drain();

    const rows = await depositsOf(fx.db, 'base');
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_hash])).toEqual([
      [orphaned.hash, 'reorged', orphaned.blockHash],
      [replacement.hash, 'confirmed', replacement.blockHash],
    ]);
    const confirmed = await fx.db.sql<{ total: string }[]>`
      select coalesce(sum(amount_base_units), 0)::text as total from deposits where session_id = ${sessionId} and stage = 'confirmed'`;
    expect(confirmed[0]?.total).toBe('10000001');
    expect(sender.sent.map((s) => [s.signal.kind, s.signal.payload.txHash])).toEqual([
      ['depositDetected', orphaned.hash],
      ['confirmations', orphaned.hash],
      ['depositReorged', orphaned.hash],
      ['depositDetected', replacement.hash],
      ['depositConfirmed', replacement.hash],
    ]);
    expect(metrics.reorgs).toBeGreaterThanOrEqual(1);
  });

  test('the same transaction re-mined in another block is withdrawn and detected again, then confirmed once', async () => {
    const { address } = await fx.watchedSession('optimism');
    const { drain, sender } = await fx.createIndexer('optimism', tokens);
    await drain();

    // One signed transaction, sent on both branches: same hash and log index, different block.
    const wallet = fx.chain.walletClientFor(PAYER);
    const request = await wallet.prepareTransactionRequest({
      to: tokens.usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, 3_000_000n] }),
    });
    const raw = await wallet.signTransaction(request);

    const snapshot = await fx.chain.snapshot();
    const first = await fx.chain.publicClient.waitForTransactionReceipt({
      hash: await fx.chain.publicClient.sendRawTransaction({ serializedTransaction: raw }),
    });
    await drain();
    await fx.chain.revert(snapshot);
    await fx.chain.mine(2);
    const again = await fx.chain.publicClient.waitForTransactionReceipt({
      hash: await fx.chain.publicClient.sendRawTransaction({ serializedTransaction: raw }),
    });
    expect(again.transactionHash).toBe(first.transactionHash);
    expect(again.blockHash).not.toBe(first.blockHash);

    await drain();
    let rows = await depositsOf(fx.db, 'optimism');
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_hash])).toEqual([[first.transactionHash, 'detected', again.blockHash]]);

    await fx.chain.mine(CHAIN_FACTS.optimism.confirmations);
    await drain();
    rows = await depositsOf(fx.db, 'optimism');
    expect(rows.map((d) => [d.stage, d.block_number])).toEqual([['confirmed', again.blockNumber]]);
    expect(sender.sent.map((s) => s.signal.kind)).toEqual(['depositDetected', 'depositReorged', 'depositDetected', 'depositConfirmed']);
    const detections = sender.sent.filter((s) => s.signal.kind === 'depositDetected').map((s) => s.signal.payload as { blockHash: string });
    expect(detections.map((d) => d.blockHash)).toEqual([first.blockHash, again.blockHash]);
    // Each step has its own request id, so Temporal's deduplication never swallows the second detection.
    expect(new Set(sender.sent.map((s) => s.requestId)).size).toBe(4);
  });

  test('a deposit read from a block that is not canonical is caught by the check before confirmation and re-read', async () => {
    const { address } = await fx.watchedSession('ethereum');
    const { drain, sender } = await fx.createIndexer('ethereum', tokens);
    const real = await fx.chain.transfer(tokens.usdc, PAYER, address, 6_000_000n);
    await drain();
    // As if eth_getLogs had answered from a fork that vanished between the calls, unnoticed at the cursor.
    const staleHash = `0x${'ab'.repeat(32)}`;
    await fx.db.sql`update deposits set block_hash = ${staleHash}, signalled_block_hash = ${staleHash} where tx_hash = ${real.hash}`;

    await fx.chain.mine(CHAIN_FACTS.ethereum.confirmations);
    await drain();
    await drain();
    const rows = await depositsOf(fx.db, 'ethereum');
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_hash, d.signalled_stage])).toEqual([
      [real.hash, 'confirmed', real.blockHash, 'confirmed'],
    ]);
    expect(sender.sent.map((s) => s.signal.kind)).toEqual(['depositDetected', 'depositReorged', 'depositDetected', 'depositConfirmed']);
  });

  test('a deposit marked reorged while its block is still canonical is brought back and confirmed once', async () => {
    const { address } = await fx.watchedSession('polygon');
    const { drain, sender } = await fx.createIndexer('polygon', tokens);
    const paid = await fx.chain.transfer(tokens.usdc, PAYER, address, 7_000_000n);
    await drain();
    // Another writer (or a flip-flopping node) put the stage to reorged although the block never left the chain.
    await fx.db.sql`update deposits set stage = 'reorged' where tx_hash = ${paid.hash}`;
    await fx.chain.mine(CHAIN_FACTS.polygon.confirmations);
    await drain();
    const rows = await depositsOf(fx.db, 'polygon');
    expect(rows.map((d) => [d.tx_hash, d.stage, d.block_hash])).toEqual([[paid.hash, 'confirmed', paid.blockHash]]);
    expect(sender.sent.map((s) => s.signal.kind)).toEqual(['depositDetected', 'depositConfirmed']);
  });

  test('a reorg below the cursor with no deposit in it walks back to the common ancestor and rescans', async () => {
    const { address } = await fx.watchedSession('arbitrum');
    const { drain, indexer, metrics } = await fx.createIndexer('arbitrum', tokens);
    await fx.chain.mine(3);
    await drain();
    const snapshot = await fx.chain.snapshot();
    const forkPoint = await fx.chain.blockNumber();
    await fx.chain.mine(4);
    await drain();
    expect(metrics.cursor).toBe(forkPoint + 4n);

    await fx.chain.revert(snapshot);
    // The new branch is longer than the old one and carries a deposit at a height the indexer already passed.
    const deposit = await fx.chain.transfer(tokens.usdc, PAYER, address, 4_000_000n);
    await fx.chain.mine(6);
    expect(deposit.blockNumber).toBe(forkPoint + 1n);
    await drain();
    expect(metrics.reorgs).toBe(1);
    expect((await depositsOf(fx.db, 'arbitrum')).map((d) => [d.tx_hash, d.stage])).toEqual([[deposit.hash, 'detected']]);
    expect(indexer.key).toEqual({ chain: 'arbitrum', network: 'testnet' });
    const [cursor] = await fx.db.sql<{ block_number: bigint; block_hash: string }[]>`
      select block_number, block_hash from indexer_cursors where chain = 'arbitrum' and network = 'testnet'`;
    const head = await fx.chain.publicClient.getBlock();
    expect(cursor).toEqual({ block_number: head.number, block_hash: head.hash });
  });
});
