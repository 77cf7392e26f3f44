import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Sql } from '../../../db/client';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { listenForWatchChanges, WatchSet } from '../../../indexers/core/watchSet';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { randomAddress } from '../evm/indexerFixture';

/** `sql` counting the rows its queries return: what a watch set costs Postgres. */
function countingRows(sql: Sql): { sql: Sql; rows(): number } {
  let rows = 0;
  const counted = new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const result = Reflect.apply(target, thisArg, args) as Promise<unknown[]>;
      // Only a tagged template is a query; sql(values) builds a fragment of one.
      const isQuery = Array.isArray(args[0]) && 'raw' in args[0];
      return isQuery ? result.then((found) => ((rows += found.length), found)) : result;
    },
  });
  return { sql: counted, rows: () => rows };
}

const lowercase = (address: string) => address.toLowerCase();

describe('watched address set', () => {
  let db: TestDatabase;
  let merchantId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    merchantId = (await createTestMerchant(db.sql)).merchant.id;
  });

  afterAll(async () => {
    await db?.drop();
  });

  async function watch(
    chain: string,
    address: string,
    watchUntil = new Date(Date.now() + 3_600_000),
    network = 'testnet',
  ): Promise<string> {
    const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(db.sql, record, 'awaiting_payment');
    await db.sql`insert into deposit_watches (session_id, chain, network, address, watch_until) values (${record.sessionId}, ${chain}, ${network}, ${address}, ${watchUntil})`;
    return record.sessionId;
  }

  test('a NOTIFY on deposit_watches brings the watch into the set of its own chain only, long before the periodic reload', async () => {
    const options = { reloadMs: 3_600_000, graceMs: 0, normalize: (a: string) => a.toLowerCase() };
    const ethereum = new WatchSet(db.sql, { chain: 'ethereum', network: 'testnet' }, options);
    const polygon = new WatchSet(db.sql, { chain: 'polygon', network: 'testnet' }, options);
    const listener = await listenForWatchChanges(db.sql, [ethereum, polygon]);
    try {
      await ethereum.refreshIfNeeded();
      await polygon.refreshIfNeeded();
      expect([ethereum.size, polygon.size]).toEqual([0, 0]);

      const address = randomAddress();
      const sessionId = await watch('ethereum', address);
      await vi.waitFor(
        async () => {
          await ethereum.refreshIfNeeded();
          expect(ethereum.match(address.toLowerCase(), new Date())?.sessionId).toBe(sessionId);
        },
        { timeout: 5_000, interval: 20 },
      );
      await polygon.refreshIfNeeded();
      expect(polygon.size).toBe(0);
    } finally {
      await listener.unlisten();
    }
  });

  test('stamping a watch backfilled notifies nobody; a new deadline does', async () => {
    const options = { reloadMs: 3_600_000, graceMs: 0, normalize: (a: string) => a.toLowerCase() };
    const optimism = new WatchSet(db.sql, { chain: 'optimism', network: 'testnet' }, options);
    const arbitrum = new WatchSet(db.sql, { chain: 'arbitrum', network: 'testnet' }, options);
    const sessionId = await watch('optimism', randomAddress());
    await optimism.refreshIfNeeded();
    expect(optimism.toBackfill.map((w) => w.sessionId)).toEqual([sessionId]);
    const listener = await listenForWatchChanges(db.sql, [optimism, arbitrum]);
    try {
      const optimismChanged = vi.spyOn(optimism, 'markChanged');
      const arbitrumChanged = vi.spyOn(arbitrum, 'markChanged');
      await optimism.recordBackfilled(db.sql, optimism.toBackfill);
      // Notifications arrive in commit order: once arbitrum's has, optimism's stamp would have been delivered too.
      await watch('arbitrum', randomAddress());
      await vi.waitFor(() => expect(arbitrumChanged).toHaveBeenCalled(), { timeout: 5_000, interval: 20 });
      expect(optimismChanged).not.toHaveBeenCalled();

      await db.sql`update deposit_watches set watch_until = watch_until + interval '1 hour' where session_id = ${sessionId}`;
      await vi.waitFor(() => expect(optimismChanged).toHaveBeenCalledWith(sessionId), { timeout: 5_000, interval: 20 });
      await optimism.refreshIfNeeded();
      expect(optimism.toBackfill).toEqual([]);
    } finally {
      await listener.unlisten();
    }
  });

  test('more open watches than a statement takes parameters are stamped backfilled at once (a first start)', async () => {
    const count = 70_000;
    await db.sql`
      insert into sessions (id, merchant_id, mode, amount_usd_cents, webhook_url, supported_methods, supported_tokens, status, expires_at, created_at, updated_at)
      select 'cs_many' || g, ${merchantId}, 'test', 100, 'https://merchant.example/webhooks', '{}', '{}', 'awaiting_payment', now() + interval '1 day', now(), now()
      from generate_series(1, ${count}) g`;
    await db.sql`
      insert into deposit_watches (session_id, chain, network, address, watch_until)
      select 'cs_many' || g, 'bsc', 'testnet', '0x' || substr(encode(sha256(convert_to('many' || g, 'UTF8')), 'hex'), 1, 40), now() + interval '1 day'
      from generate_series(1, ${count}) g`;
    const set = new WatchSet(
      db.sql,
      { chain: 'bsc', network: 'testnet' },
      { reloadMs: 3_600_000, graceMs: 0, normalize: (a) => a.toLowerCase() },
    );
    await set.refreshIfNeeded();
    expect(set.toBackfill).toHaveLength(count);
    await set.recordBackfilled(db.sql, set.toBackfill);
    const [row] = await db.sql<
      { open: number }[]
    >`select count(*)::int as open from deposit_watches where chain = 'bsc' and backfilled_at is null`;
    expect(row?.open).toBe(0);
  });

  test('a watch matches blocks up to its deadline and loads during the grace period after it', async () => {
    const address = randomAddress();
    const until = new Date(Date.now() - 30 * 60_000);
    await watch('base', address, until);
    const set = new WatchSet(
      db.sql,
      { chain: 'base', network: 'testnet' },
      { reloadMs: 1_000, graceMs: 3_600_000, normalize: (a) => a.toLowerCase() },
    );
    await set.refreshIfNeeded();
    expect(set.match(address, new Date(until.getTime() - 1_000))).toBeDefined();
    expect(set.match(address, new Date(until.getTime() + 1_000))).toBeUndefined();
  });

  test('with 5,000 open watches, 50 new ones read 50 rows, not the whole set again for each', async () => {
    const open = 5_000;
    await db.sql`
      insert into sessions (id, merchant_id, mode, amount_usd_cents, webhook_url, supported_methods, supported_tokens, status, expires_at, created_at, updated_at)
      select 'cs_open' || g, ${merchantId}, 'live', 100, 'https://merchant.example/webhooks', '{}', '{}', 'awaiting_payment', now() + interval '1 day', now(), now()
      from generate_series(1, ${open}) g`;
    await db.sql`
      insert into deposit_watches (session_id, chain, network, address, watch_until, backfilled_at)
      select 'cs_open' || g, 'ethereum', 'mainnet', '0x' || substr(encode(sha256(convert_to('open' || g, 'UTF8')), 'hex'), 1, 40), now() + interval '1 day', now()
      from generate_series(1, ${open}) g`;
    const counted = countingRows(db.sql);
    const set = new WatchSet(
      counted.sql,
      { chain: 'ethereum', network: 'mainnet' },
      { reloadMs: 3_600_000, graceMs: 0, normalize: lowercase },
    );
    const listener = await listenForWatchChanges(db.sql, [set]);
    try {
      await set.refreshIfNeeded();
      expect(counted.rows()).toBe(open);

      const added: string[] = [];
      for (let i = 0; i < 50; i++) {
        const address = randomAddress();
        const sessionId = await watch('ethereum', address, undefined, 'mainnet');
        added.push(sessionId);
        // The indexer refreshes before every scan: each new session arrives on a tick of its own.
        await vi.waitFor(
          async () => {
            await set.refreshIfNeeded();
            expect(set.match(address, new Date())?.sessionId).toBe(sessionId);
          },
          { timeout: 5_000, interval: 10 },
        );
      }
      expect(counted.rows() - open).toBe(50);
      expect(set.size).toBe(open + 50);
      expect(set.toBackfill.map((w) => w.sessionId).sort()).toEqual(added.sort());
    } finally {
      await listener.unlisten();
    }
  });

  test('a watch that no longer holds its address is reloaded with all the others; expired ones drop out', async () => {
    let clock = Date.now();
    const set = new WatchSet(
      db.sql,
      { chain: 'polygon', network: 'mainnet' },
      { reloadMs: 60_000, graceMs: 0, normalize: lowercase, now: () => clock },
    );
    const listener = await listenForWatchChanges(db.sql, [set]);
    try {
      const before = randomAddress();
      const sessionId = await watch('polygon', before, new Date(clock + 3_600_000), 'mainnet');
      const expiring = await watch('polygon', randomAddress(), new Date(clock + 30_000), 'mainnet');
      await set.refreshIfNeeded();
      expect(set.size).toBe(2);

      const after = randomAddress();
      await db.sql`update deposit_watches set address = ${after} where session_id = ${sessionId}`;
      await vi.waitFor(
        async () => {
          await set.refreshIfNeeded();
          expect(set.match(after, new Date(clock))?.sessionId).toBe(sessionId);
        },
        { timeout: 5_000, interval: 20 },
      );
      expect(set.match(before, new Date(clock))).toBeUndefined();
      expect(set.size).toBe(2);

      clock += 60_000;
      await set.refreshIfNeeded();
      expect(set.size).toBe(1);
      expect(set.toBackfill.map((w) => w.sessionId)).not.toContain(expiring);
    } finally {
      await listener.unlisten();
    }
  });

  test('a reconnect of the LISTEN connection reloads every watch: notifications sent while it was down are lost', async () => {
    const set = new WatchSet(db.sql, { chain: 'base', network: 'mainnet' }, { reloadMs: 3_600_000, graceMs: 0, normalize: lowercase });
    const listener = await listenForWatchChanges(db.sql, [set]);
    try {
      await set.refreshIfNeeded();
      const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
      await insertSessionRecord(db.sql, record, 'awaiting_payment');
      const address = randomAddress();
      // Written without its NOTIFY, as if sent while the listening connection was down.
      await db.sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`insert into deposit_watches (session_id, chain, network, address, watch_until) values (${record.sessionId}, 'base', 'mainnet', ${address}, ${new Date(Date.now() + 3_600_000)})`;
      });
      await set.refreshIfNeeded();
      expect(set.match(address, new Date())).toBeUndefined();

      await db.sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`;
      await vi.waitFor(
        async () => {
          await set.refreshIfNeeded();
          expect(set.match(address, new Date())?.sessionId).toBe(record.sessionId);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await listener.unlisten();
    }
  });
});
