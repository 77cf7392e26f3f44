// The count of a merchant's pending, awaiting-payment and confirming sessions, kept by trigger so the
// cap on open sessions reads one row and a few corrections rather than counting every open session. It must equal
// a recount after any write of a session, concurrent ones included; and the cap counts open sessions (open statuses,
// not yet expired).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSessionRecord, insertSessionUnderCap } from '../../db/repositories/sessions';
import type { SessionStatus } from '../../domain/wire/status';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

async function newSession(
  merchantId: string,
  status: SessionStatus,
  options: { mode?: 'test' | 'live'; lifetimeMinutes?: number } = {},
): Promise<string> {
  const record = {
    ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: options.lifetimeMinutes ?? 60 }),
    mode: options.mode ?? 'test',
  };
  await insertSessionRecord(db.sql, record, status);
  return record.sessionId;
}

const setStatus = (sessionId: string, status: SessionStatus) => db.sql`update sessions set status = ${status} where id = ${sessionId}`;

/** The kept counts and a recount of the same merchant, each as { mode: in progress }. */
async function countsOf(merchantId: string) {
  const kept = await db.sql<
    { mode: string; n: number }[]
  >`select mode, in_progress as n from in_progress_session_counts where merchant_id = ${merchantId}`;
  const recount = await db.sql<{ mode: string; n: number }[]>`
    select mode, count(*)::int as n from sessions
    where merchant_id = ${merchantId} and status in ('pending', 'awaiting_payment', 'confirming') group by mode`;
  const asMap = (rows: { mode: string; n: number }[]) => Object.fromEntries(rows.filter((r) => r.n > 0).map((r) => [r.mode, r.n]));
  return { kept: asMap(kept), recount: asMap(recount) };
}

describe('in_progress_session_counts', () => {
  it('follows every status write: in at pending, awaiting_payment or confirming, out at any other', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const a = await newSession(merchant.id, 'pending');
    const b = await newSession(merchant.id, 'pending');
    await newSession(merchant.id, 'completed');
    await newSession(merchant.id, 'pending', { mode: 'live' });
    expect(await countsOf(merchant.id)).toEqual({ kept: { test: 2, live: 1 }, recount: { test: 2, live: 1 } });

    await setStatus(a, 'awaiting_payment');
    await setStatus(a, 'confirming');
    expect((await countsOf(merchant.id)).kept).toEqual({ test: 2, live: 1 });
    await setStatus(a, 'underpaid');
    await setStatus(b, 'expired');
    expect(await countsOf(merchant.id)).toEqual({ kept: { live: 1 }, recount: { live: 1 } });
    // A deposit on an underpaid session confirms again; a status written twice, or closed to closed, moves nothing.
    await setStatus(a, 'confirming');
    await setStatus(a, 'confirming');
    await setStatus(b, 'failed');
    expect(await countsOf(merchant.id)).toEqual({ kept: { test: 1, live: 1 }, recount: { test: 1, live: 1 } });
  });

  it('stays equal to a recount under concurrent creates and status writes', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const first = await Promise.all(Array.from({ length: 20 }, () => newSession(merchant.id, 'pending')));
    const statuses: SessionStatus[] = ['awaiting_payment', 'completed', 'expired', 'underpaid', 'confirming'];
    await Promise.all([
      ...first.map((id, i) => setStatus(id, statuses[i % statuses.length] as SessionStatus)),
      ...Array.from({ length: 20 }, () => newSession(merchant.id, 'awaiting_payment')),
    ]);
    const counts = await countsOf(merchant.id);
    expect(counts.recount).toEqual({ test: 8 + 20 });
    expect(counts.kept).toEqual(counts.recount);
  });

  it('counts a statement writing many sessions once, by merchant and mode: a bulk insert, a bulk delete', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    await db.sql`
      insert into sessions (id, merchant_id, mode, amount_usd_cents, webhook_url, supported_methods, supported_tokens, status, expires_at, created_at, updated_at)
      select 'cs_bulk' || g || ${merchant.id}, ${merchant.id}, case when g % 4 = 0 then 'live' else 'test' end, 100, 'https://merchant.example/webhooks', '{}', '{}',
             case when g % 3 = 0 then 'completed' else 'pending' end, now() + interval '1 hour', now(), now()
      from generate_series(1, 6000) g`;
    expect(await countsOf(merchant.id)).toEqual({ kept: { test: 3000, live: 1000 }, recount: { test: 3000, live: 1000 } });
    await db.sql.begin(async (tx) => {
      const doomed = tx`select id from sessions where merchant_id = ${merchant.id} and id like 'cs_bulk1%'`;
      await tx`delete from session_status_changes where session_id in (${doomed})`;
      await tx`delete from sessions where id in (${doomed})`;
    });
    const counts = await countsOf(merchant.id);
    expect(counts.kept).toEqual(counts.recount);
    expect(counts.recount.test).toBeLessThan(3000);
  });

  it('lets the cap count open sessions as before: in progress or underpaid, before their expiry', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const create = () => insertSessionUnderCap(db.sql, sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), 4);
    await newSession(merchant.id, 'underpaid');
    await newSession(merchant.id, 'awaiting_payment');
    // Past their expiry none of these count, whatever their status.
    for (const status of ['pending', 'awaiting_payment', 'confirming', 'underpaid'] as const)
      await newSession(merchant.id, status, { lifetimeMinutes: -1 });
    await newSession(merchant.id, 'completed');
    expect(await create()).toBe(true);
    expect(await create()).toBe(true);
    expect(await create()).toBe(false);
  });
});
