import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadChainsConfig } from '../../../config/chains';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { IndexerMetrics } from '../../../indexers/core/metrics';
import { NetworkMismatchError } from '../../../indexers/core/chainReader';
import { buildSolanaIndexer } from '../../../indexers/solana/startSolanaIndexers';
import { createMint, fundedSigner, mintTo, transfer } from '../../../toolchain/localSolana/splToken';
import { RecordingSignalSender, silentLogger } from '../evm/indexerFixture';
import { createSolanaFixture, solanaDeposits, type SolanaFixture } from './solanaFixture';

const REQUIRED = CHAIN_FACTS.solana.confirmations;

describe('Solana indexer: detection and confirmation depth in slots', () => {
  let fx: SolanaFixture;

  beforeAll(async () => {
    fx = await createSolanaFixture();
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('a USDC deposit is detected in its slot and confirmed at exactly 32 slots, not 31', async () => {
    expect(REQUIRED).toBe(32);
    const { sessionId, address } = await fx.watchedSession();
    const { drain, sender } = fx.createIndexer();
    const sent = await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to: address, amount: 25_000_000n }]);
    const [block] = fx.chain.produce();
    await drain();
    let [deposit] = await solanaDeposits(fx.db);
    expect(deposit).toMatchObject({
      session_id: sessionId,
      tx_hash: sent.signature,
      token: 'USDC',
      amount_base_units: '25000000',
      stage: 'detected',
      confirmations: 1,
    });
    expect(deposit?.block_number).toBe(sent.slot);
    expect(deposit?.block_hash).toBe(block?.blockhash);

    // The deposit's own slot counts as one: 30 slots on top leave it at 31, one short. A skipped slot counts too.
    fx.chain.produce(20);
    fx.chain.skip(1);
    fx.chain.produce(9);
    await drain();
    [deposit] = await solanaDeposits(fx.db);
    expect(deposit).toMatchObject({ stage: 'detected', confirmations: REQUIRED - 1 });

    fx.chain.produce(1);
    await drain();
    [deposit] = await solanaDeposits(fx.db);
    expect(deposit).toMatchObject({ stage: 'confirmed', confirmations: REQUIRED, signalled_stage: 'confirmed' });

    fx.chain.produce(3);
    await drain();
    // Progress is signalled once per range read (at most 16 slots each), never repeated, never past 31.
    const kinds = sender.kinds(sessionId);
    expect(kinds[0]).toBe('depositDetected');
    expect(kinds.at(-1)).toBe('depositConfirmed');
    expect(kinds.filter((k) => k === 'depositConfirmed')).toHaveLength(1);
    const progress = sender.sent
      .filter((s) => s.signal.kind === 'confirmations')
      .map((s) => (s.signal.payload as { confirmations: number }).confirmations);
    expect(progress).toEqual([...new Set(progress)].sort((x, y) => x - y));
    expect(progress.at(-1)).toBe(REQUIRED - 1);
    const observation = {
      chain: 'solana',
      txHash: sent.signature,
      logIndex: deposit?.log_index,
      token: 'USDC',
      amount: '25000000',
      toAddress: address,
      fromAddress: fx.payer.address,
      blockNumber: sent.slot.toString(),
      blockHash: block?.blockhash,
    };
    expect(sender.sent[0]?.signal).toEqual({ kind: 'depositDetected', payload: observation });
    expect(sender.sent.at(-2)?.signal).toEqual({
      kind: 'confirmations',
      payload: { chain: 'solana', txHash: sent.signature, logIndex: deposit?.log_index, confirmations: REQUIRED - 1 },
    });
    expect(sender.sent.at(-1)?.signal).toEqual({ kind: 'depositConfirmed', payload: { ...observation, confirmations: REQUIRED } });
    expect(new Set(sender.sent.map((s) => s.requestId)).size).toBe(sender.sent.length);
  });

  test('amounts are exact base units; other mints, unwatched owners, failed transfers and expired watches are ignored', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const second = await fx.watchedSession();
    const expired = await fx.watchedSession({ watchUntil: new Date(Date.now() - 60_000) });
    const stranger = await fundedSigner(fx.chain, 1n);
    const other = await createMint(fx.chain, 6);
    await mintTo(fx.chain, other, fx.payer.address, 10n ** 9n);
    fx.chain.produce();
    const { drain, sender } = fx.createIndexer();

    // Above 2^53 and every digit significant: any trip through a JS number would change it.
    const big = 9_007_199_254_740_993n;
    await mintTo(fx.chain, fx.mints.usdt, fx.payer.address, big);
    const a = await transfer(fx.chain, fx.mints.usdt, fx.payer, [{ to: address, amount: big }]);
    // One transaction paying two watched wallets and a stranger: one deposit per receiving token account.
    const b = await transfer(fx.chain, fx.mints.usdc, fx.payer, [
      { to: address, amount: 1n },
      { to: stranger.address, amount: 7_000_000n },
      { to: second.address, amount: 2_500_000n },
    ]);
    // Two transfers to the same account in one transaction credit it once, with their sum.
    const c = await transfer(fx.chain, fx.mints.usdc, fx.payer, [
      { to: second.address, amount: 1_000_000n },
      { to: second.address, amount: 234_567n },
    ]);
    await transfer(fx.chain, other, fx.payer, [{ to: address, amount: 5_000_000n }]);
    await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to: expired.address, amount: 1_000_000n }]);
    await transfer(fx.chain, fx.mints.usdc, fx.payer, [{ to: address, amount: 0n }]);
    const failed = await transfer(fx.chain, fx.mints.usdc, stranger, [{ to: address, amount: 10n ** 15n }], { allowFailure: true });
    expect(failed.failed).toBe(true);
    fx.chain.produce();
    await drain();

    const rows = (await solanaDeposits(fx.db)).filter((r) => [sessionId, second.sessionId, expired.sessionId].includes(r.session_id));
    const summary = rows.map((r) => ({
      session: r.session_id,
      tx: r.tx_hash,
      token: r.token,
      amount: r.amount_base_units,
      to: r.to_address,
    }));
    expect(summary).toHaveLength(4);
    expect(summary).toEqual(
      expect.arrayContaining([
        { session: sessionId, tx: a.signature, token: 'USDT', amount: big.toString(), to: address },
        { session: sessionId, tx: b.signature, token: 'USDC', amount: '1', to: address },
        { session: second.sessionId, tx: b.signature, token: 'USDC', amount: '2500000', to: second.address },
        { session: second.sessionId, tx: c.signature, token: 'USDC', amount: '1234567', to: second.address },
      ]),
    );
    const inB = rows.filter((r) => r.tx_hash === b.signature).map((r) => r.log_index);
    expect(new Set(inB).size).toBe(2);
    expect(rows.every((r) => r.from_address === fx.payer.address)).toBe(true);
    const amounts = sender.sent
      .filter((s) => s.signal.kind === 'depositDetected')
      .map((s) => (s.signal.payload as { amount: string }).amount);
    expect(amounts.sort()).toEqual(['1', '1234567', '2500000', big.toString()].sort());
    const [sum] = await fx.db.sql<
      { total: string }[]
    >`select sum(amount_base_units)::text as total from deposits where session_id = ${sessionId}`;
    expect(BigInt(sum?.total ?? '0')).toBe(big + 1n);
  });

  test('a mainnet indexer refuses a node that is not mainnet-beta; a testnet one accepts a local cluster', async () => {
    const config = loadChainsConfig({ RPC_URLS_SOLANA_MAINNET: fx.rpc.url });
    const mainnet = buildSolanaIndexer(createChainRegistry(config).get('solana', 'mainnet'), {
      sql: fx.db.sql,
      tuning: config.indexer,
      sender: new RecordingSignalSender(),
      logger: silentLogger,
      metrics: new IndexerMetrics(),
    });
    await expect(mainnet.verifyNetwork()).rejects.toBeInstanceOf(NetworkMismatchError);
    await expect(fx.createIndexer().indexer.verifyNetwork()).resolves.toBeUndefined();
  });
});
