// GET /checkout/sessions: a required, bounded created-date range; filters by status, chain, token and part of
// the transaction id; newest first; only the key's own merchant and mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIST_RANGE_DAYS } from '../../domain/wire/sessionListQuery';
import { paymentIdForSession } from '../../domain/wire/ids';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let shop: TestMerchant;
let other: TestMerchant;
const ids: Record<string, string> = {};

const HOUR = 3_600_000;
const range = (fromMsAgo: number, toMsAgo = -HOUR) =>
  `created_from=${encodeURIComponent(new Date(Date.now() - fromMsAgo).toISOString())}&created_to=${encodeURIComponent(new Date(Date.now() - toMsAgo).toISOString())}`;

async function create(m: TestMerchant, key: string, transactionId: string): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: key,
    body: sessionRequest(m.merchant.id, { transaction_id: transactionId }),
  });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

beforeAll(async () => {
  service = await startTestService({ worker: false });
  shop = await createTestMerchant(service.db.sql, { name: 'List shop' });
  other = await createTestMerchant(service.db.sql, { name: 'Other shop' });
  ids.old = await create(shop, shop.testKey, 'ORDER-old');
  ids.paidBase = await create(shop, shop.testKey, 'order-base-1');
  ids.paidTron = await create(shop, shop.testKey, 'order-tron-2');
  ids.live = await create(shop, shop.liveKey, 'order-live-3');
  ids.foreign = await create(other, other.testKey, 'order-foreign-4');
  const sql = service.db.sql;
  await sql`update sessions set created_at = now() - interval '3 days' where id = ${ids.old!}`;
  await sql`update sessions set status = 'completed' where id = ${ids.paidBase!}`;
  for (const [id, token, chain] of [
    [ids.paidBase!, 'USDC', 'base'],
    [ids.paidTron!, 'USDT', 'tron'],
  ] as const) {
    await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, decimals)
              values (${paymentIdForSession(id)}, ${id}, ${token}, ${chain}, 'address', 42500000, 6)`;
  }
});
afterAll(async () => service?.stop());

const list = async (key: string, query: string) => {
  const answer = await call(service.baseUrl, 'GET', `/checkout/sessions?${query}`, { apiKey: key });
  return { ...answer, ids: ((answer.body.data ?? []) as unknown as { session_id: string }[]).map((s) => s.session_id) };
};

describe('GET /checkout/sessions', () => {
  it("lists the key's own merchant and mode only, newest first, in the contract's envelope", async () => {
    const answer = await list(shop.testKey, range(7 * 24 * HOUR));
    expect(answer.status).toBe(200);
    expect(answer.ids).toEqual([ids.paidTron, ids.paidBase, ids.old]);
    expect((answer.body.data as unknown as Record<string, unknown>[])[0]).toMatchObject({
      session_id: ids.paidTron,
      transaction_id: 'order-tron-2',
      merchant_id: shop.merchant.id,
      amount_usd: 42.5,
    });
    expect((await list(shop.liveKey, range(7 * 24 * HOUR))).ids).toEqual([ids.live]);
    expect((await list(other.testKey, range(7 * 24 * HOUR))).ids).toEqual([ids.foreign]);
  });

  it('filters by date range, status, chain, token and part of the transaction id', async () => {
    expect((await list(shop.testKey, range(24 * HOUR))).ids).toEqual([ids.paidTron, ids.paidBase]);
    expect((await list(shop.testKey, `${range(7 * 24 * HOUR)}&status=completed`)).ids).toEqual([ids.paidBase]);
    expect((await list(shop.testKey, `${range(7 * 24 * HOUR)}&chain=tron`)).ids).toEqual([ids.paidTron]);
    expect((await list(shop.testKey, `${range(7 * 24 * HOUR)}&token=USDC`)).ids).toEqual([ids.paidBase]);
    expect((await list(shop.testKey, `${range(7 * 24 * HOUR)}&transaction_id=order-`)).ids).toEqual([ids.paidTron, ids.paidBase, ids.old]);
    expect((await list(shop.testKey, `${range(7 * 24 * HOUR)}&transaction_id=${encodeURIComponent('%')}`)).ids).toEqual([]);
  });

  it('requires a created-date range of at most the documented bound, and says what is wrong', async () => {
    const missing = await list(shop.testKey, 'status=completed');
    expect(missing.status).toBe(400);
    expect(missing.body.details?.validation_errors).toEqual(['created_from: Required', 'created_to: Required']);
    const tooLong = await list(shop.testKey, range((MAX_LIST_RANGE_DAYS + 1) * 24 * HOUR));
    expect(tooLong.body.details?.validation_errors).toEqual([`created_to: Must be at most ${MAX_LIST_RANGE_DAYS} days after created_from`]);
    const backwards = await list(shop.testKey, range(-2 * HOUR, HOUR));
    expect(backwards.body.details?.validation_errors).toEqual(['created_to: Must be after created_from']);
    const badStatus = await list(shop.testKey, `${range(HOUR)}&status=paid`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error).toBe('Validation failed');
  });
});
