// A relayer's nonces on a chain are handed out under its evm_nonces row's lock (db/repositories/chainIntents.ts): two
// signings at once never take the same nonce, the very first two of a sender on a chain included, when there is no
// row yet to lock (a USDC and a USDT sweep of a new chain starting together).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { takeEvmNonce } from '../../db/repositories/chainIntents';
import { nextNonce } from '../../domain/chainWrites/evmChainIntent';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let signerSql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  signerSql = createSql(db.urlAs('checkout_signer'), { max: 4 });
});
afterAll(async () => {
  await signerSql?.end({ timeout: 5 });
  await db?.drop();
});

describe('takeEvmNonce', () => {
  it('gives the first two signings of a sender on a chain, at once, two nonces', async () => {
    const key = { chain: 'base', mode: 'live' as const, sender: '0x00000000000000000000000000000000000000aa' };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstTaken!: (nonce: bigint) => void;
    const taken = new Promise<bigint>((resolve) => (firstTaken = resolve));
    const first = signerSql.begin(async (tx) => {
      firstTaken(await takeEvmNonce(tx, key, (stored) => nextNonce(stored, 0n)));
      await held;
    });
    expect(await taken).toBe(0n);
    const second = signerSql.begin((tx) => takeEvmNonce(tx, key, (stored) => nextNonce(stored, 0n)));
    // The second waits on the first's lock; only once it waits does the first commit.
    await vi.waitFor(
      async () => {
        const [waiting] = await db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
        expect(waiting?.n).toBe(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    release();
    await first;
    expect(await second).toBe(1n);
  });
});
