import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHAIN_FACTS, type Chain } from '../../../domain/chains/chains';
import { createIndexerFixture, deployTokens, depositsOf, randomAddress, type IndexerFixture, type Tokens } from './indexerFixture';

const EVM_CHAINS: Chain[] = ['ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc'];
const PAYER = 1;

describe('EVM indexer: detection and confirmation depth', () => {
  let fx: IndexerFixture;
  let six: Tokens;
  let eighteen: Tokens;

  beforeAll(async () => {
    fx = await createIndexerFixture();
    six = await deployTokens(fx.chain, 6);
    eighteen = await deployTokens(fx.chain, 18);
    const payer = fx.chain.account(PAYER).address;
    for (const token of [six.usdc, six.usdt]) await fx.chain.mint(token, payer, 10n ** 15n);
    for (const token of [eighteen.usdc, eighteen.usdt]) await fx.chain.mint(token, payer, 10n ** 30n);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test.each(EVM_CHAINS)('%s: confirmed at exactly its CHAIN_FACTS depth, not one block earlier', async (chain) => {
    const required = CHAIN_FACTS[chain].confirmations;
    const tokens = chain === 'bsc' ? eighteen : six;
    const { sessionId, address } = await fx.watchedSession(chain);
    const { drain, sender } = await fx.createIndexer(chain, tokens);

    const sent = await fx.chain.transfer(tokens.usdc, PAYER, address, 25n * 10n ** BigInt(tokens.decimals));
    await drain();
    let [deposit] = await depositsOf(fx.db, chain);
    expect(deposit).toMatchObject({
      session_id: sessionId,
      tx_hash: sent.hash,
      log_index: sent.logIndex,
      stage: 'detected',
      confirmations: 1,
    });
    expect(deposit?.block_hash).toBe(sent.blockHash);

    // The deposit's own block counts as one: required − 2 blocks on top leave it one confirmation short.
    await fx.chain.mine(required - 2);
    await drain();
    [deposit] = await depositsOf(fx.db, chain);
    expect(deposit).toMatchObject({ stage: 'detected', confirmations: required - 1 });

    await fx.chain.mine(1);
    await drain();
    [deposit] = await depositsOf(fx.db, chain);
    expect(deposit).toMatchObject({ stage: 'confirmed', confirmations: required, signalled_stage: 'confirmed' });

    // More blocks change nothing and send nothing more.
    await fx.chain.mine(3);
    await drain();
    expect(sender.kinds(sessionId)).toEqual(['depositDetected', 'confirmations', 'depositConfirmed']);
    const [detected, progress, confirmed] = sender.sent;
    const observation = {
      chain,
      txHash: sent.hash,
      logIndex: sent.logIndex,
      token: 'USDC',
      amount: (25n * 10n ** BigInt(tokens.decimals)).toString(),
      toAddress: address,
      fromAddress: fx.chain.account(PAYER).address,
      blockNumber: sent.blockNumber.toString(),
      blockHash: sent.blockHash,
    };
    expect(detected?.signal).toEqual({ kind: 'depositDetected', payload: observation });
    expect(progress?.signal).toEqual({
      kind: 'confirmations',
      payload: { chain, txHash: sent.hash, logIndex: sent.logIndex, confirmations: required - 1 },
    });
    expect(confirmed?.signal).toEqual({ kind: 'depositConfirmed', payload: { ...observation, confirmations: required } });
    expect(new Set(sender.sent.map((s) => s.requestId)).size).toBe(3);
  });

  test('confirmation progress is signalled once per new depth', async () => {
    const { sessionId, address } = await fx.watchedSession('bsc');
    const { drain, sender } = await fx.createIndexer('bsc', eighteen);
    await fx.chain.transfer(eighteen.usdt, PAYER, address, 10n ** 18n);
    await drain();
    for (let i = 0; i < 16; i++) {
      await fx.chain.mine(1);
      await drain();
      // A tick with no new block repeats nothing.
      await drain();
    }
    const depths = sender.sent
      .filter((s) => s.signal.kind === 'confirmations')
      .map((s) => (s.signal.payload as { confirmations: number }).confirmations);
    expect(depths).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(sender.kinds(sessionId).filter((k) => k === 'depositConfirmed')).toHaveLength(1);
  });

  test('bsc 18-decimal amounts are stored and signalled exactly; other tokens and unwatched addresses are ignored', async () => {
    const { sessionId, address } = await fx.watchedSession('bsc');
    const stranger = randomAddress();
    const otherToken = await fx.chain.deployToken({ symbol: 'DAI', decimals: 18 });
    await fx.chain.mint(otherToken, fx.chain.account(PAYER).address, 10n ** 24n);
    const { drain, sender } = await fx.createIndexer('bsc', eighteen);

    // Above 2^53 and with every digit significant: any trip through a JS number would change it.
    const usdt = 123_456_789_012_345_678_901_234n;
    const usdc = 1n;
    const a = await fx.chain.transfer(eighteen.usdt, PAYER, address, usdt);
    const b = await fx.chain.transfer(eighteen.usdc, PAYER, address, usdc);
    await fx.chain.transfer(otherToken, PAYER, address, 5n * 10n ** 18n);
    await fx.chain.transfer(six.usdc, PAYER, address, 5_000_000n);
    await fx.chain.transfer(eighteen.usdc, PAYER, stranger, 7n * 10n ** 18n);
    await fx.chain.transfer(eighteen.usdt, PAYER, address, 0n);
    await drain();

    const rows = (await depositsOf(fx.db, 'bsc')).filter((r) => r.session_id === sessionId);
    expect(rows.map((r) => ({ tx: r.tx_hash, token: r.token, amount: r.amount_base_units, to: r.to_address }))).toEqual([
      { tx: a.hash, token: 'USDT', amount: usdt.toString(), to: address },
      { tx: b.hash, token: 'USDC', amount: '1', to: address },
    ]);
    const amounts = sender.sent
      .filter((s) => s.signal.kind === 'depositDetected')
      .map((s) => (s.signal.payload as { amount: string }).amount);
    expect(amounts).toEqual([usdt.toString(), '1']);
    const [sum] = await fx.db.sql<{ total: string }[]>`
      select sum(amount_base_units)::text as total from deposits where session_id = ${sessionId}`;
    expect(BigInt(sum?.total ?? '0')).toBe(usdt + usdc);
  });

  test('a watch that ended before the block was mined does not match; one added later is picked up', async () => {
    const expired = await fx.watchedSession('polygon', { watchUntil: new Date(Date.now() - 60_000) });
    const { drain, indexer } = await fx.createIndexer('polygon', six);
    await drain();
    const late = await fx.watchedSession('polygon');
    await fx.chain.transfer(six.usdc, PAYER, expired.address, 1_000_000n);
    await fx.chain.transfer(six.usdc, PAYER, late.address, 2_000_000n);
    // No LISTEN here: the new watch is found by the reload the NOTIFY would have triggered.
    indexer.watches.markStale();
    await drain();
    const rows = (await depositsOf(fx.db, 'polygon')).filter((r) => [expired.sessionId, late.sessionId].includes(r.session_id));
    expect(rows.map((r) => r.session_id)).toEqual([late.sessionId]);
  });
});
