// One active indexer per chain and network: a second holder of the same advisory lock waits until the first
// releases it, while another chain's lock is free at once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acquireChainLock, type HeldLock } from '../../../indexers/core/chainLock';
import { createTestDatabase, type TestDatabase } from '../../support/database';

describe('chain lock', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('a second indexer for the same chain and network waits for the first, then takes over', async () => {
    const abort = new AbortController();
    const first = await acquireChainLock(db.sql, { chain: 'base', network: 'mainnet' }, abort.signal, 20);
    expect(first).toBeDefined();

    let second: HeldLock | undefined;
    const waiting = acquireChainLock(db.sql, { chain: 'base', network: 'mainnet' }, abort.signal, 20).then((lock) => (second = lock));
    const otherNetwork = await acquireChainLock(db.sql, { chain: 'base', network: 'testnet' }, abort.signal, 20);
    expect(otherNetwork).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second, 'the second indexer still waits').toBeUndefined();

    await first?.release();
    await waiting;
    expect(second).toBeDefined();
    await second?.release();
    await otherNetwork?.release();
  });

  test('a waiting indexer stops waiting when it is shut down', async () => {
    const abort = new AbortController();
    const held = await acquireChainLock(db.sql, { chain: 'bsc', network: 'mainnet' }, new AbortController().signal, 20);
    const waiting = acquireChainLock(db.sql, { chain: 'bsc', network: 'mainnet' }, abort.signal, 20);
    abort.abort();
    expect(await waiting).toBeUndefined();
    await held?.release();
  });
});
