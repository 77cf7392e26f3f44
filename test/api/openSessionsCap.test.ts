// A merchant's open sessions are capped per mode, stricter for test keys, so sessions
// (and their workflows) cannot be piled up without bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ worker: false, env: { MAX_OPEN_SESSIONS_TEST: '2', MAX_OPEN_SESSIONS_LIVE: '3' } });
});
afterAll(() => service?.stop());

const create = (merchant: TestMerchant, apiKey: string, transactionId: string) =>
  call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey,
    body: sessionRequest(merchant.merchant.id, { transaction_id: transactionId }),
  });

const sessionCount = async (merchant: TestMerchant) => {
  const [row] = await service.db.sql<{ n: number }[]>`select count(*)::int as n from sessions where merchant_id = ${merchant.merchant.id}`;
  return row!.n;
};

describe('cap on open sessions', () => {
  it('refuses a test session beyond the cap with 429, creating nothing, while live keys have their own cap', async () => {
    const merchant = await createTestMerchant(service.db.sql, { name: 'Capped' });
    expect((await create(merchant, merchant.testKey, 'a')).status).toBe(201);
    expect((await create(merchant, merchant.testKey, 'b')).status).toBe(201);
    const refused = await create(merchant, merchant.testKey, 'c');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.body).toEqual({
      error: 'Too many open sessions: at most 2 test sessions may be open at once; wait for some to close or cancel them',
    });
    expect(await sessionCount(merchant)).toBe(2);

    // The same transaction_id again is a replay, not a new session: it is answered at the cap too.
    expect((await create(merchant, merchant.testKey, 'a')).status).toBe(200);
    for (const id of ['l1', 'l2', 'l3']) expect((await create(merchant, merchant.liveKey, id)).status).toBe(201);
    expect((await create(merchant, merchant.liveKey, 'l4')).status).toBe(429);
  });

  it('counts only sessions that can still be paid: a closed or expired one frees its place', async () => {
    const merchant = await createTestMerchant(service.db.sql, { name: 'Freed' });
    await create(merchant, merchant.testKey, 'x');
    await create(merchant, merchant.testKey, 'y');
    expect((await create(merchant, merchant.testKey, 'z')).status).toBe(429);
    await service.db
      .sql`update sessions set status = 'cancelled' where id = (select session_id from transactions where ext_transaction_id = 'x' and merchant_id = ${merchant.merchant.id})`;
    expect((await create(merchant, merchant.testKey, 'z')).status).toBe(201);
    await service.db
      .sql`update sessions set expires_at = now() - interval '1 minute' where id = (select session_id from transactions where ext_transaction_id = 'y' and merchant_id = ${merchant.merchant.id})`;
    expect((await create(merchant, merchant.testKey, 'w')).status).toBe(201);
  });

  it('holds exactly under concurrent creates', async () => {
    const merchant = await createTestMerchant(service.db.sql, { name: 'Racing' });
    const answers = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((id) => create(merchant, merchant.testKey, id)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    expect(await sessionCount(merchant)).toBe(2);
  });
});
