// Idempotency-Key on POST /checkout/sessions, as Stripe does it: scoped to the API key's merchant and
// mode, the first result replayed for 24 h, a different request or a concurrent repeat refused with 409,
// 5xx and auth refusals never stored.
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  alice = await createTestMerchant(service.db.sql, { name: 'Alice' });
  bob = await createTestMerchant(service.db.sql, { name: 'Bob' });
});
afterAll(() => service?.stop());

const post = (apiKey: string, idempotencyKey: string | undefined, body: unknown) =>
  call(service.baseUrl, 'POST', '/checkout/sessions', {
    headers: {
      'x-service-user-type': 'checkout',
      'x-api-key': apiKey,
      'content-type': 'application/json',
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    body,
  });

const sessionCount = async (merchantId: string) => {
  const [row] = await service.db.sql<{ count: number }[]>`select count(*)::int as count from sessions where merchant_id = ${merchantId}`;
  return row!.count;
};

describe('Idempotency-Key', () => {
  it('replays the first response, status and body, for a repeat of the same request', async () => {
    const key = ulid();
    const body = sessionRequest(alice.merchant.id, { metadata: { a: 1, b: 2 } });
    const before = await sessionCount(alice.merchant.id);
    const first = await post(alice.testKey, key, body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // The same request with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries({ ...body, metadata: { b: 2, a: 1 } }).reverse());
    const again = await post(alice.testKey, key, reordered);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await sessionCount(alice.merchant.id)).toBe(before + 1);
  });

  it('refuses the same key with a different body with 409, and leaves the stored result alone', async () => {
    const key = ulid();
    const body = sessionRequest(alice.merchant.id);
    const first = await post(alice.testKey, key, body);
    const other = await post(alice.testKey, key, { ...body, amount_usd: 1 });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      error: `Idempotency-Key ${key} was already used with a different request; use a new key for a new request`,
    });
    const replay = await post(alice.testKey, key, body);
    expect(replay.body).toEqual(first.body);
  });

  it('refuses a repeat while the first request is still in progress with 409', async () => {
    const key = ulid();
    const body = sessionRequest(alice.merchant.id);
    const first = await post(alice.testKey, key, body);
    // Put the key back into the state it had while the first request ran.
    await service.db.sql`
      update idempotency_keys set response_status = null, response_body = null, completed_at = null, locked_by = 'other-request', locked_at = now()
      where merchant_id = ${alice.merchant.id} and idempotency_key = ${key}`;
    const concurrent = await post(alice.testKey, key, body);
    expect(concurrent.status).toBe(409);
    expect(concurrent.body).toEqual({ error: `A request with Idempotency-Key ${key} is still in progress; retry once it has completed` });

    // A holder silent for longer than the lock timeout died with its process; a retry takes the key over.
    await service.db.sql`update idempotency_keys set locked_at = now() - interval '10 minutes' where idempotency_key = ${key}`;
    const takeover = await post(alice.testKey, key, body);
    expect(takeover.status).toBe(200);
    expect(takeover.body).toEqual(first.body);
  });

  it('scopes keys to the merchant and to the mode', async () => {
    const key = ulid();
    const a = await post(alice.testKey, key, sessionRequest(alice.merchant.id, { transaction_id: 'scoped-order' }));
    const b = await post(bob.testKey, key, sessionRequest(bob.merchant.id, { transaction_id: 'scoped-order' }));
    const live = await post(alice.liveKey, key, sessionRequest(alice.merchant.id, { transaction_id: 'scoped-order' }));
    expect([a.status, b.status, live.status]).toEqual([201, 201, 201]);
    const ids = new Set([a, b, live].map((r) => r.body.data?.session_id));
    expect(ids.size).toBe(3);
  });

  it('stores 4xx results such as validation failures and replays them', async () => {
    const key = ulid();
    const body = sessionRequest(alice.merchant.id, { amount_usd: -1 });
    const first = await post(alice.testKey, key, body);
    expect(first.status).toBe(400);
    const again = await post(alice.testKey, key, body);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('does not store auth refusals: the key stays free for the corrected request', async () => {
    const key = ulid();
    const refused = await post(bob.testKey, key, sessionRequest(alice.merchant.id));
    expect(refused.status).toBe(403);
    const corrected = await post(bob.testKey, key, sessionRequest(bob.merchant.id));
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets keys after 24 hours', async () => {
    const key = ulid();
    await post(alice.testKey, key, sessionRequest(alice.merchant.id));
    await service.db.sql`update idempotency_keys set created_at = now() - interval '24 hours 1 second' where idempotency_key = ${key}`;
    const reused = await post(alice.testKey, key, sessionRequest(alice.merchant.id));
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
  });

  it('purges expired keys as new results are stored', async () => {
    const stale = ulid();
    await post(alice.testKey, stale, sessionRequest(alice.merchant.id));
    await service.db.sql`update idempotency_keys set created_at = now() - interval '25 hours' where idempotency_key = ${stale}`;
    await post(alice.testKey, ulid(), sessionRequest(alice.merchant.id));
    const rows = await service.db.sql`select 1 from idempotency_keys where idempotency_key = ${stale}`;
    expect(rows).toHaveLength(0);
  });

  it('refuses a malformed key with 400', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'é']) {
      const response = await post(alice.testKey, key, sessionRequest(alice.merchant.id));
      expect(response.status, key).toBe(400);
      expect(response.body).toEqual({ error: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces' });
    }
  });

  it('changes nothing for requests without the header', async () => {
    const body = sessionRequest(alice.merchant.id);
    expect((await post(alice.testKey, undefined, body)).status).toBe(201);
    const repeat = await post(alice.testKey, undefined, body);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('Idempotency-Key when the request fails with a 5xx', () => {
  it('stores nothing, so the retry runs again', async () => {
    const broken = await startTestService({ worker: false });
    try {
      const merchant = await createTestMerchant(broken.db.sql);
      // Temporal unreachable: create session answers 503.
      await broken.temporal.connection.close();
      const key = ulid();
      const body = sessionRequest(merchant.merchant.id);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await call(broken.baseUrl, 'POST', '/checkout/sessions', {
          headers: {
            'x-service-user-type': 'checkout',
            'x-api-key': merchant.testKey,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body,
        });
        expect(response.status).toBe(503);
        expect(response.headers.get('idempotent-replayed')).toBeNull();
      }
      expect(await broken.db.sql`select 1 from idempotency_keys`).toHaveLength(0);
    } finally {
      await broken.stop();
    }
  });
});
