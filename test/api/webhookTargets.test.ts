// In production a test key's webhook_url obeys the live policy, and a URL whose literal
// host is not public is refused when the session is created, not at its first delivery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let production: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  production = await startTestService({ worker: false, env: { APP_ENV: 'production', WEBHOOK_ALLOWED_PRIVATE_TARGETS: '10.1.0.0/16' } });
  merchant = await createTestMerchant(production.db.sql, { name: 'Prod' });
});
afterAll(() => production?.stop());

const create = (apiKey: string, webhookUrl: string, transactionId: string) =>
  call(production.baseUrl, 'POST', '/checkout/sessions', {
    apiKey,
    body: sessionRequest(merchant.merchant.id, { webhook_url: webhookUrl, transaction_id: transactionId }),
  });

describe('webhook targets at session creation, APP_ENV=production', () => {
  it.each([
    ['http://merchant.example/hook', 'Must use https'],
    ['https://127.0.0.1/hook', 'Host 127.0.0.1 is not a public address'],
    ['https://169.254.169.254/latest/meta-data', 'Host 169.254.169.254 is not a public address'],
    ['https://10.2.0.1/hook', 'Host 10.2.0.1 is not a public address'],
    ['https://localhost:8443/hook', 'Host localhost is not a public address'],
  ])('refuses a test key session with webhook_url %s, creating nothing', async (url, message) => {
    const response = await create(merchant.testKey, url, `refused-${url}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Validation failed', details: { validation_errors: [`webhook_url: ${message}`] } });
    const [row] = await production.db.sql`select count(*)::int as n from transactions where ext_transaction_id = ${`refused-${url}`}`;
    expect(row!.n).toBe(0);
  });

  it('refuses the same for a live key', async () => {
    const response = await create(merchant.liveKey, 'https://192.168.1.10/hook', 'live-private');
    expect(response.body.details?.validation_errors).toEqual(['webhook_url: Host 192.168.1.10 is not a public address']);
  });

  it("accepts public hosts and the operator's allowlisted private range", async () => {
    expect((await create(merchant.testKey, 'https://hooks.merchant.example/hook', 'public-name')).status).toBe(201);
    expect((await create(merchant.testKey, 'https://8.8.8.8/hook', 'public-ip')).status).toBe(201);
    expect((await create(merchant.testKey, 'https://10.1.2.3/hook', 'allowlisted')).status).toBe(201);
  });
});
