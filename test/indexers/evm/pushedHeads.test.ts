// Following the head on pushed headers (newHeads) must never take a header's word over the chain's: the test is
// the push source here, handing the indexer real headers of the local node, some of them withheld, so that a
// missed notification and a head on another branch happen exactly when the test says.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BlockHeader } from '../../../indexers/core/chainReader';
import { HeadWakeup, type HeadNotifications } from '../../../indexers/core/headNotifications';
import { startRpcProxy, type RpcProxy } from '../../support/evm/rpcProxy';
import { createIndexerFixture, deployTokens, depositsOf, type IndexerFixture, type Tokens } from './indexerFixture';

const PAYER = 1;

interface TestHeads extends HeadNotifications {
  push(header: BlockHeader): void;
}

function testHeads(): TestHeads {
  const wakeup = new HeadWakeup();
  return {
    live: true,
    push: (header) => wakeup.notify(header),
    wait: (ms, signal) => wakeup.wait(ms, signal),
    take: () => wakeup.take(),
    close: () => undefined,
  };
}

describe('EVM indexer: following pushed heads', () => {
  let fx: IndexerFixture;
  let tokens: Tokens;
  let proxy: RpcProxy;

  beforeAll(async () => {
    fx = await createIndexerFixture();
    tokens = await deployTokens(fx.chain, 6);
    await fx.chain.mint(tokens.usdc, fx.chain.account(PAYER).address, 10n ** 15n);
    proxy = await startRpcProxy(fx.chain.rpcUrl);
  });

  afterAll(async () => {
    await proxy?.close();
    await fx?.stop();
  });

  async function header(number: bigint): Promise<BlockHeader> {
    const block = await fx.chain.publicClient.getBlock({ blockNumber: number });
    return { number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
  }

  test('a head missed between two notifications is read from the node: the block without a notification keeps its deposit', async () => {
    const heads = testHeads();
    const { address } = await fx.watchedSession('base');
    const { drain, metrics } = await fx.createIndexer('base', tokens, { rpcUrl: proxy.url, heads });
    await drain();

    const first = await fx.chain.transfer(tokens.usdc, PAYER, address, 1_000_000n);
    heads.push(await header(first.blockNumber));
    await drain();
    // The next block's notification is lost; the one after it arrives.
    const unannounced = await fx.chain.transfer(tokens.usdc, PAYER, address, 2_000_000n);
    const third = await fx.chain.transfer(tokens.usdc, PAYER, address, 3_000_000n);
    proxy.resetCalls();
    heads.push(await header(third.blockNumber));
    await drain();

    const deposits = await depositsOf(fx.db, 'base');
    expect(deposits.map((d) => [d.tx_hash, d.block_hash])).toEqual([first, unannounced, third].map((t) => [t.hash, t.blockHash]));
    expect(metrics.cursor).toBe(third.blockNumber);
    // Read as when polling: the node's head, then the range up to it.
    expect(proxy.calls.get('eth_blockNumber')).toBeGreaterThanOrEqual(1);
  });

  test('a pushed head on another branch than the cursor is not followed: the reorg is found at once, not at depth', async () => {
    const heads = testHeads();
    const { address } = await fx.watchedSession('optimism');
    const { drain, sender, metrics } = await fx.createIndexer('optimism', tokens, { rpcUrl: proxy.url, heads });
    await drain();

    const snapshot = await fx.chain.snapshot();
    const orphaned = await fx.chain.transfer(tokens.usdc, PAYER, address, 5_000_000n);
    heads.push(await header(orphaned.blockNumber));
    await drain();
    expect((await depositsOf(fx.db, 'optimism')).map((d) => [d.tx_hash, d.stage])).toEqual([[orphaned.hash, 'detected']]);

    // Another branch replaces the cursor's block. Its first block's notification is lost; the next one is at the
    // height after the cursor's, but its parent is the new block, not the cursor.
    await fx.chain.revert(snapshot);
    await fx.chain.mine(2);
    const next = await header(orphaned.blockNumber + 1n);
    expect(next.parentHash).not.toBe(orphaned.blockHash);
    heads.push(next);
    await drain();

    expect((await depositsOf(fx.db, 'optimism')).map((d) => [d.tx_hash, d.stage, d.signalled_stage])).toEqual([
      [orphaned.hash, 'reorged', 'reorged'],
    ]);
    expect(sender.kinds()).toEqual(['depositDetected', 'depositReorged']);
    expect(metrics.reorgs).toBe(1);
    const [cursor] = await fx.db.sql<{ block_number: bigint; block_hash: string }[]>`
      select block_number, block_hash from indexer_cursors where chain = 'optimism' and network = 'testnet'`;
    expect(cursor).toEqual({ block_number: next.number, block_hash: next.hash });
  });

  test('a pushed header of a block the node does not have moves neither the cursor nor any depth', async () => {
    const heads = testHeads();
    const { address } = await fx.watchedSession('arbitrum');
    const { indexer, drain, metrics } = await fx.createIndexer('arbitrum', tokens, { rpcUrl: proxy.url, heads });
    const paid = await fx.chain.transfer(tokens.usdc, PAYER, address, 6_000_000n);
    await drain();
    expect((await depositsOf(fx.db, 'arbitrum')).map((d) => [d.tx_hash, d.confirmations])).toEqual([[paid.hash, 1]]);

    // A head that continues the cursor on paper, for a block no node has.
    const made = { number: paid.blockNumber + 1n, hash: `0x${'ab'.repeat(32)}`, parentHash: paid.blockHash, timestamp: 0n };
    heads.push(made);
    // Asked for its logs by that hash, the node errs: the tick fails with the cursor where it was.
    await expect(indexer.tick()).rejects.toThrow(/eth_getLogs/);
    expect(metrics.cursor).toBe(paid.blockNumber);
    // The next tick has no header to follow and asks the node for its head, which is still the cursor's block.
    await drain();

    expect(metrics.cursor).toBe(paid.blockNumber);
    expect((await depositsOf(fx.db, 'arbitrum')).map((d) => [d.tx_hash, d.confirmations])).toEqual([[paid.hash, 1]]);
  });
});
