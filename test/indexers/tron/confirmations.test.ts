import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tronAddressToEvmHex, tronAddressToHex } from '../../../domain/addresses/tron';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { createTronFixture, randomTronAddress, tronDeposits, USDC, USDT, type TronFixture } from './tronFixture';

const PAYER = randomTronAddress();

describe('Tron indexer: detection and confirmation depth', () => {
  let fx: TronFixture;

  beforeAll(async () => {
    fx = await createTronFixture();
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('a USDT transfer to a watched T-address is confirmed at exactly 19 blocks, not at 18', async () => {
    expect(CHAIN_FACTS.tron.confirmations).toBe(19);
    const { sessionId, address } = await fx.watchedSession();
    const { drain, sender } = fx.createIndexer();

    const [sent] = fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 25_000_000n });
    if (!sent) throw new Error('unreachable');
    await drain();
    let [deposit] = await tronDeposits(fx.db);
    expect(deposit).toMatchObject({
      session_id: sessionId,
      tx_hash: sent.txId,
      log_index: sent.logIndex,
      stage: 'detected',
      confirmations: 1,
    });
    expect(deposit?.block_hash).toBe(sent.blockHash);
    // Tron's own spellings: a 64-hex transaction id and block id without 0x, base58 addresses.
    expect(deposit?.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(deposit?.block_hash.slice(0, 16)).toBe(sent.blockNumber.toString(16).padStart(16, '0'));

    // The deposit's own block counts as one: 17 blocks on top make 18 confirmations, one short.
    fx.node.mine(17);
    await drain();
    [deposit] = await tronDeposits(fx.db);
    expect(deposit).toMatchObject({ stage: 'detected', confirmations: 18 });

    fx.node.mine(1);
    await drain();
    [deposit] = await tronDeposits(fx.db);
    expect(deposit).toMatchObject({ stage: 'confirmed', confirmations: 19, signalled_stage: 'confirmed' });

    fx.node.mine(3);
    await drain();
    expect(sender.kinds(sessionId)).toEqual(['depositDetected', 'confirmations', 'depositConfirmed']);
    const observation = {
      chain: 'tron',
      txHash: sent.txId,
      logIndex: sent.logIndex,
      token: 'USDT',
      amount: '25000000',
      toAddress: address,
      fromAddress: PAYER,
      blockNumber: sent.blockNumber.toString(),
      blockHash: sent.blockHash,
    };
    const [detected, progress, confirmed] = sender.sent;
    expect(detected?.signal).toEqual({ kind: 'depositDetected', payload: observation });
    expect(progress?.signal).toEqual({
      kind: 'confirmations',
      payload: { chain: 'tron', txHash: sent.txId, logIndex: sent.logIndex, confirmations: 18 },
    });
    expect(confirmed?.signal).toEqual({ kind: 'depositConfirmed', payload: { ...observation, confirmations: 19 } });
    expect(new Set(sender.sent.map((s) => s.requestId)).size).toBe(3);
  });

  test('amounts are exact; other tokens, unwatched addresses and zero-value spam are ignored', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const stranger = randomTronAddress();
    const otherToken = randomTronAddress();
    const { drain, sender } = fx.createIndexer();

    // Above 2^53 with every digit significant: any trip through a JS number would change it.
    const big = 123_456_789_012_345_678_901n;
    const [a, b, , , c] = fx.node.transfer(
      { contract: USDT, from: PAYER, to: address, amount: big },
      { contract: USDC, from: PAYER, to: address, amount: 1n },
      { contract: otherToken, from: PAYER, to: address, amount: 5_000_000n },
      { contract: USDT, from: PAYER, to: stranger, amount: 7_000_000n },
      { contract: USDT, from: PAYER, to: address, amount: 2_500_001n },
    );
    fx.node.transfer({ contract: USDT, from: stranger, to: address, amount: 0n });
    await drain();

    const rows = (await tronDeposits(fx.db)).filter((r) => r.session_id === sessionId);
    expect(
      rows.map((r) => ({
        tx: r.tx_hash,
        index: r.log_index,
        token: r.token,
        amount: r.amount_base_units,
        to: r.to_address,
        from: r.from_address,
      })),
    ).toEqual([
      { tx: a?.txId, index: 0, token: 'USDT', amount: big.toString(), to: address, from: PAYER },
      { tx: b?.txId, index: 1, token: 'USDC', amount: '1', to: address, from: PAYER },
      { tx: c?.txId, index: 4, token: 'USDT', amount: '2500001', to: address, from: PAYER },
    ]);
    // The outbox orders by transaction id within a block, so compare as sets.
    const amounts = sender.sent
      .filter((s) => s.sessionId === sessionId && s.signal.kind === 'depositDetected')
      .map((s) => (s.signal.payload as { amount: string }).amount);
    expect(amounts.sort()).toEqual([big.toString(), '1', '2500001'].sort());
  });

  test('the deposit row keeps the watched T-address; the node only ever saw the 0x and 41 forms of it', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const { drain } = fx.createIndexer();
    fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 9_990_000n });
    await drain();
    const [row] = (await tronDeposits(fx.db)).filter((r) => r.session_id === sessionId);
    expect(row?.to_address).toBe(address);
    expect(row?.from_address).toBe(PAYER);
    expect(row?.to_address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    // The three spellings of one account: base58 stored, 0x + 20 bytes in the log topic, 41 + 20 bytes on the node API.
    expect(`41${tronAddressToEvmHex(address).slice(2)}`).toBe(tronAddressToHex(address));
  });

  test('a watch that ended before the block was produced does not match; one added later is picked up', async () => {
    const expired = await fx.watchedSession({ watchUntil: new Date(Date.now() - 60_000) });
    const { drain, indexer } = fx.createIndexer();
    await drain();
    const late = await fx.watchedSession();
    fx.node.transfer(
      { contract: USDT, from: PAYER, to: expired.address, amount: 1_000_000n },
      { contract: USDT, from: PAYER, to: late.address, amount: 2_000_000n },
    );
    // No LISTEN here: the new watch is found by the reload the NOTIFY would have triggered.
    indexer.watches.markStale();
    await drain();
    const rows = (await tronDeposits(fx.db)).filter((r) => [expired.sessionId, late.sessionId].includes(r.session_id));
    expect(rows.map((r) => r.session_id)).toEqual([late.sessionId]);
  });
});
