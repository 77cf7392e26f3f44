import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { listenForWatchChanges, WatchSet } from '../../../indexers/core/watchSet';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { randomAddress } from '../evm/indexerFixture';

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

  async function watch(chain: string, address: string, watchUntil = new Date(Date.now() + 3_600_000)): Promise<string> {
    const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(db.sql, record, 'awaiting_payment');
    await db.sql`insert into deposit_watches (session_id, chain, network, address, watch_until) values (${record.sessionId}, ${chain}, 'testnet', ${address}, ${watchUntil})`;
    return record.sessionId;
  }

  test('a NOTIFY on deposit_watches reloads the set of its own chain only, long before the periodic reload', async () => {
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
      const optimismStale = vi.spyOn(optimism, 'markStale');
      const arbitrumStale = vi.spyOn(arbitrum, 'markStale');
      await optimism.recordBackfilled(db.sql, optimism.toBackfill);
      // Notifications arrive in commit order: once arbitrum's has, optimism's stamp would have been delivered too.
      await watch('arbitrum', randomAddress());
      await vi.waitFor(() => expect(arbitrumStale).toHaveBeenCalled(), { timeout: 5_000, interval: 20 });
      expect(optimismStale).not.toHaveBeenCalled();

      await db.sql`update deposit_watches set watch_until = watch_until + interval '1 hour' where session_id = ${sessionId}`;
      await vi.waitFor(() => expect(optimismStale).toHaveBeenCalled(), { timeout: 5_000, interval: 20 });
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
    const set = new WatchSet(db.sql, { chain: 'bsc', network: 'testnet' }, { reloadMs: 3_600_000, graceMs: 0, normalize: (a) => a.toLowerCase() });
    await set.refreshIfNeeded();
    expect(set.toBackfill).toHaveLength(count);
    await set.recordBackfilled(db.sql, set.toBackfill);
    const [row] = await db.sql<{ open: number }[]>`select count(*)::int as open from deposit_watches where chain = 'bsc' and backfilled_at is null`;
    expect(row?.open).toBe(0);
  });

  test('a watch matches blocks up to its deadline and loads during the grace period after it', async () => {
    const address = randomAddress();
    const until = new Date(Date.now() - 30 * 60_000);
    await watch('base', address, until);
    const set = new WatchSet(db.sql, { chain: 'base', network: 'testnet' }, { reloadMs: 1_000, graceMs: 3_600_000, normalize: (a) => a.toLowerCase() });
    await set.refreshIfNeeded();
    expect(set.match(address, new Date(until.getTime() - 1_000))).toBeDefined();
    expect(set.match(address, new Date(until.getTime() + 1_000))).toBeUndefined();
  });
});
