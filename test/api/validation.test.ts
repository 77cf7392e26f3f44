// Bad input gets a clear error in the documented shape (docs/api.md#refusals) and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

async function expectNothingCreated() {
  const rows = await service.db.sql`select id from sessions`;
  expect(rows).toHaveLength(0);
}

async function create(body: unknown) {
  return call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, body });
}

describe('create-session validation', () => {
  it.each([
    [{ amount_usd: 0 }, 'amount_usd: Number must be greater than 0'],
    [{ amount_usd: -5 }, 'amount_usd: Number must be greater than 0'],
    [{ amount_usd: 10.005 }, 'amount_usd: Number must have at most 2 decimal places'],
    [{ amount_usd: '10.00' }, 'amount_usd: Expected number, received string'],
    [{ amount_usd: 100_000_000 }, 'amount_usd: Number must be less than or equal to 99999999.99'],
    [{ merchant_currency: 'JPY', merchant_amount: 1e15 }, 'merchant_amount: Number must be less than or equal to 99999999999'],
    [{ merchant_id: 'merchant-1' }, 'merchant_id: Must be a merchant id of the form mer_<ULID>'],
    [{ transaction_id: '' }, 'transaction_id: String must contain at least 1 character(s)'],
    [{ transaction_id: 'has space' }, 'transaction_id: Must be printable ASCII without spaces'],
    [{ webhook_url: 'not a url' }, 'webhook_url: Invalid url'],
    [{ webhook_url: 'ftp://merchant.example/hook' }, 'webhook_url: Invalid url'],
    [{ merchant_currency: 'eur', merchant_amount: 5 }, 'merchant_currency: Must be an ISO 4217 currency code such as EUR'],
    [{ merchant_currency: 'EUR' }, 'merchant_amount: Required when merchant_currency is given'],
    [{ merchant_amount: 5 }, 'merchant_currency: Required when merchant_amount is given'],
    [{ metadata: { nested: { no: true } } }, 'metadata.nested: Invalid input'],
    [{ metadata: 'x' }, 'metadata: Expected record, received string'],
    [{ surprise: true }, 'surprise: Unrecognized field'],
  ])('%j → %s', async (override, message) => {
    const response = await create(sessionRequest(merchant.merchant.id, override));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Validation failed', details: { validation_errors: [message] } });
    await expectNothingCreated();
  });

  it('lists every missing required field at once', async () => {
    const response = await create({});
    expect(response.status).toBe(400);
    expect(response.body.details?.validation_errors).toEqual([
      'merchant_id: Required',
      'transaction_id: Required',
      'amount_usd: Required',
      'webhook_url: Required',
    ]);
  });

  it('rejects a body that is not an object', async () => {
    const response = await create([1, 2]);
    expect(response.body).toEqual({
      error: 'Validation failed',
      details: { validation_errors: ['body: Expected object, received array'] },
    });
  });

  it('rejects a missing body', async () => {
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey });
    expect(response.status).toBe(400);
    expect(response.body.details?.validation_errors).toEqual(['body: Required']);
  });

  it('answers malformed JSON with a clean 400', async () => {
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, rawBody: '{"amount_usd": 1,' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Malformed JSON in request body' });
  });

  it('answers an oversized body with 413 before reading it', async () => {
    const huge = JSON.stringify(
      sessionRequest(merchant.merchant.id, { metadata: { blob: 'x'.repeat(500) }, padding: 'y'.repeat(service.config.maxBodyBytes) }),
    );
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: merchant.testKey, rawBody: huge });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: `Request body exceeds ${service.config.maxBodyBytes} bytes` });
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      headers: { 'x-api-key': merchant.testKey, 'x-service-user-type': 'checkout', 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'amount_usd=1',
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ error: 'Content-Type must be application/json' });
  });

  it('checks credentials before the body, so an unauthenticated caller learns nothing about validation', async () => {
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      headers: { 'x-service-user-type': 'checkout' },
      rawBody: '{bad',
    });
    expect(response.status).toBe(400);
    const clean = await call(service.baseUrl, 'POST', '/checkout/sessions', { headers: { 'x-service-user-type': 'checkout' }, body: {} });
    expect(clean.status).toBe(401);
  });
});

describe('request bodies the server could not walk or the database could not store', () => {
  it.each([
    ['nested 5,000 levels deep', `${'{"n":'.repeat(5_000)}"leaf"${'}'.repeat(5_000)}`, 'Request body is nested deeper than 16 levels'],
    ['with NUL in a metadata value', '{"note":"a\\u0000b"}', 'Request body contains a NUL character or an unpaired UTF-16 surrogate'],
    [
      'with an unpaired surrogate in a metadata key',
      '{"\\ud800":"x"}',
      'Request body contains a NUL character or an unpaired UTF-16 surrogate',
    ],
    [
      'with 5,000 array elements',
      `[${Array.from({ length: 5_000 }, () => 1).join(',')}]`,
      'Request body has more than 1000 keys and array elements',
    ],
  ])('answers 400 to a body %s, and creates nothing', async (_name, metadataJson, message) => {
    const rawBody = JSON.stringify(sessionRequest(merchant.merchant.id)).replace(/}$/, `,"metadata":${metadataJson}}`);
    // With an Idempotency-Key, whose request hash walks the whole body.
    const headers = { 'x-service-user-type': 'checkout', 'x-api-key': merchant.testKey, 'idempotency-key': `refused-${message.length}` };
    const response = await call(service.baseUrl, 'POST', '/checkout/sessions', { rawBody, headers });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
    await expectNothingCreated();
  });
});

describe('reads and routing', () => {
  it('answers an unknown session with 404 Session not found', async () => {
    const response = await call(service.baseUrl, 'GET', '/checkout/sessions/cs_unknown', { apiKey: merchant.testKey });
    expect(response).toMatchObject({ status: 404, body: { error: 'Session not found' } });
  });

  it('rejects a malformed by_ext_transaction_id flag', async () => {
    const response = await call(service.baseUrl, 'GET', '/checkout/transactions/abc?by_ext_transaction_id=yes', {
      apiKey: merchant.testKey,
    });
    expect(response.status).toBe(400);
    expect(response.body.details?.validation_errors).toEqual([
      "by_ext_transaction_id: Invalid enum value. Expected 'true' | 'false', received 'yes'",
    ]);
  });

  it('answers unknown paths with 404 and wrong methods with 405, in the error shape', async () => {
    expect(await call(service.baseUrl, 'GET', '/nope')).toMatchObject({ status: 404, body: { error: 'Not found' } });
    expect(await call(service.baseUrl, 'DELETE', '/checkout/sessions', { apiKey: merchant.testKey })).toMatchObject({
      status: 405,
      body: { error: 'Method not allowed' },
    });
  });
});
