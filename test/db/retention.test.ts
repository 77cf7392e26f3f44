// The retention sweep deletes expired quotes, stale rate-limit counters, idempotency keys
// past their replay window and old attempts of finished webhook deliveries, and nothing still in use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { purgeRetained } from '../../db/repositories/retention';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;
/** The sweep runs in the worker, as its role. */
let worker: Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

const AGES = { quoteDays: 7, rateLimitHours: 24, webhookAttemptDays: 90 };

describe('retention sweep', () => {
  it('deletes only what is past its age and no longer referenced', async () => {
    const sql = db.sql;
    const { merchant } = await createTestMerchant(sql);
    const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(sql, record, 'completed');
    const quote = (id: string, expiredDaysAgo: number) => sql`
      insert into quotes (id, mode, token, chain, amount_usd_cents, token_base_units, decimals, rate, price_source, expires_at)
      values (${id}, 'test', 'USDC', 'base', 100, 1000000, 6, '1', 'test', now() - make_interval(days => ${expiredDaysAgo}))`;
    await quote('qt_old', 10);
    await quote('qt_old_paid', 10);
    await quote('qt_recent', 1);
    await sql`
      insert into payments (id, session_id, quote_id, token, chain, deposit_address, expected_base_units, decimals)
      values ('pay_1', ${record.sessionId}, 'qt_old_paid', 'USDC', 'base', '0xaddr', 1000000, 6)`;

    const [key] = await sql<{ id: string }[]>`select id from api_keys where merchant_id = ${merchant.id} order by id limit 1`;
    await sql`insert into rate_limit_windows (api_key_id, window_start, request_count) values (${key!.id}, now() - interval '2 days', 3)`;
    await sql`insert into session_rate_limit_windows (session_id, window_start, request_count) values (${record.sessionId}, now() - interval '2 minutes', 3)`;
    await sql`insert into merchant_session_token_rate_limit_windows (merchant_id, window_start, request_count) values (${merchant.id}, now() - interval '2 days', 3)`;
    await sql`insert into auth_failure_windows (ip, window_start, request_count) values ('203.0.113.1', now() - interval '2 days', 31), ('203.0.113.2', now(), 2)`;
    const idempotencyKey = (name: string, age: string) => sql`
      insert into idempotency_keys (merchant_id, mode, idempotency_key, request_hash, created_at)
      values (${merchant.id}, 'test', ${name}, '\\x00', now() - ${age}::interval)`;
    await idempotencyKey('stale', '25 hours');
    await idempotencyKey('fresh', '1 hour');

    const delivery = (id: string, state: string) => sql`
      insert into webhook_deliveries (id, session_id, event, status_version, url, body, state)
      values (${id}, ${record.sessionId}, ${`payment.${id}`}, 1, 'http://127.0.0.1/hook', '{}', ${state})`;
    await delivery('wh_done', 'delivered');
    await delivery('wh_retrying', 'pending');
    const attempt = (deliveryId: string, n: number, daysAgo: number) => sql`
      insert into webhook_attempts (delivery_id, attempt, started_at, latency_ms) values (${deliveryId}, ${n}, now() - make_interval(days => ${daysAgo}), 5)`;
    await attempt('wh_done', 1, 120);
    await attempt('wh_done', 2, 10);
    await attempt('wh_retrying', 1, 120);
    await sql`
      insert into webhook_test_events (id, merchant_id, mode, url, body, sent_at, latency_ms)
      values ('wh_test_old', ${merchant.id}, 'test', 'http://127.0.0.1/hook', '{}', now() - interval '100 days', 5),
             ('wh_test_new', ${merchant.id}, 'test', 'http://127.0.0.1/hook', '{}', now(), 5)`;

    expect(await purgeRetained(worker, AGES)).toEqual({
      quotes: 1,
      rateLimitWindows: 1,
      sessionRateLimitWindows: 0,
      merchantSessionTokenRateLimitWindows: 1,
      authFailureWindows: 1,
      idempotencyKeys: 1,
      webhookAttempts: 1,
      webhookTestEvents: 1,
    });
    expect((await sql`select id from quotes order by id`).map((r) => r.id)).toEqual(['qt_old_paid', 'qt_recent']);
    expect((await sql`select idempotency_key from idempotency_keys`).map((r) => r.idempotency_key)).toEqual(['fresh']);
    expect(await sql`select delivery_id, attempt from webhook_attempts order by delivery_id, attempt`).toEqual([
      { delivery_id: 'wh_done', attempt: 2 },
      { delivery_id: 'wh_retrying', attempt: 1 },
    ]);
    expect((await sql`select id from webhook_test_events`).map((r) => r.id)).toEqual(['wh_test_new']);
    expect(await sql`select count(*)::int as n from session_rate_limit_windows`).toEqual([{ n: 1 }]);
    expect((await sql`select ip from auth_failure_windows`).map((r) => r.ip)).toEqual(['203.0.113.2']);

    // A second sweep finds nothing more.
    expect(Object.values(await purgeRetained(worker, AGES)).every((n) => n === 0)).toBe(true);
  });
});
