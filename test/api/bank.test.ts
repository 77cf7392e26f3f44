// Bank transfer on the hosted page (docs/api.md#bank-transfer): session-token auth, currency rules, details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBankAccountActive } from '../../db/repositories/bankAccounts';
import { BankDetails, bankTransferReference } from '../../domain/session/bankTransfer';
import { CheckoutSession } from '../../domain/wire/session';
import { createBankAccount, createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let single: TestMerchant;
let multi: TestMerchant;
let none: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  const sql = service.db.sql;
  [single, multi, none] = await Promise.all([
    createTestMerchant(sql, { name: 'Single' }),
    createTestMerchant(sql, { name: 'Multi' }),
    createTestMerchant(sql, { name: 'None' }),
  ]);
  await createBankAccount(sql, single.merchant.id, 'EUR', { accountName: 'Single GmbH', iban: 'DE89370400440532013000' });
  await createBankAccount(sql, multi.merchant.id, 'USD', { iban: null, swiftBic: 'CHASUS33', accountNumber: '000123456789' });
  await createBankAccount(sql, multi.merchant.id, 'GBP', {
    accountName: 'Multi Ltd',
    bankName: 'Barclays',
    iban: 'GB33BUKB20201555555555',
    swiftBic: 'BUKBGB22',
    accountNumber: '55555555',
    sortCode: '20-20-15',
  });
  await createBankAccount(sql, multi.merchant.id, 'EUR');
  const oldEur = await createBankAccount(sql, multi.merchant.id, 'EUR', { active: false });
  const chf = await createBankAccount(sql, multi.merchant.id, 'CHF');
  await setBankAccountActive(sql, chf.id, false);
  expect(oldEur.active).toBe(false);
});
afterAll(() => service?.stop());

/** Creates a session for `m` and returns its id and the session token of its checkout_url_with_token. */
async function checkout(m: TestMerchant, amountUsd = 42.5): Promise<{ sessionId: string; token: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: m.testKey,
    body: sessionRequest(m.merchant.id, { amount_usd: amountUsd }),
  });
  expect(created.status).toBe(201);
  const url = new URL(created.body.data?.checkout_url_with_token as string);
  return { sessionId: created.body.data?.session_id as string, token: url.searchParams.get('token') as string };
}

function asPage(path: string, token: string, via: 'bearer' | 'query' = 'bearer') {
  if (via === 'query') {
    const separator = path.includes('?') ? '&' : '?';
    return call(service.baseUrl, 'GET', `${path}${separator}token=${encodeURIComponent(token)}`, {
      headers: { 'x-service-user-type': 'checkout' },
    });
  }
  return call(service.baseUrl, 'GET', path, { headers: { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' } });
}

function decode(response: { body: { data?: Record<string, unknown> } }): BankDetails {
  const encoded = response.body.data?.encoded_bank_details as string;
  return BankDetails.parse(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')));
}

describe('GET /checkout/sessions/bank-currencies', () => {
  it('lists the distinct currencies of active accounts, sorted, by header token or query token', async () => {
    const { token } = await checkout(multi);
    for (const via of ['bearer', 'query'] as const) {
      const response = await asPage('/checkout/sessions/bank-currencies', token, via);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { currencies: ['EUR', 'GBP', 'USD'] } });
    }
  });

  it('answers [] when the merchant has no active account', async () => {
    const { token } = await checkout(none);
    expect((await asPage('/checkout/sessions/bank-currencies', token)).body).toEqual({ data: { currencies: [] } });
  });

  it("answers each token with its own session's merchant only", async () => {
    const [a, b] = await Promise.all([checkout(single), checkout(multi)]);
    expect((await asPage('/checkout/sessions/bank-currencies', a.token)).body.data).toEqual({ currencies: ['EUR'] });
    expect((await asPage('/checkout/sessions/bank-currencies', b.token)).body.data).toEqual({ currencies: ['EUR', 'GBP', 'USD'] });
  });

  it('rejects unknown query parameters', async () => {
    const { token } = await checkout(single);
    const response = await asPage('/checkout/sessions/bank-currencies?session_id=cs_x', token);
    expect(response).toMatchObject({
      status: 400,
      body: { error: 'Validation failed', details: { validation_errors: ['session_id: Unrecognized field'] } },
    });
  });
});

describe('GET /checkout/sessions/bank-details', () => {
  it('uses the only currency when none is given, and returns every field with the session reference', async () => {
    const { sessionId, token } = await checkout(single, 19.99);
    const response = await asPage('/checkout/sessions/bank-details', token);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data ?? {})).toEqual(['encoded_bank_details']);
    expect(decode(response)).toEqual({
      account_name: 'Single GmbH',
      bank_name: 'Example Bank',
      iban: 'DE89370400440532013000',
      swift_bic: 'COBADEFFXXX',
      account_number: null,
      sort_code: null,
      reference: bankTransferReference(sessionId),
      currency: 'EUR',
      amount_usd: 19.99,
    });
  });

  it('gives each session its own short, typeable, stable reference', async () => {
    const [a, b] = await Promise.all([checkout(single), checkout(single)]);
    const refA = decode(await asPage('/checkout/sessions/bank-details', a.token)).reference;
    const refB = decode(await asPage('/checkout/sessions/bank-details', b.token)).reference;
    expect(refA).toMatch(/^CS-[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(refA).not.toBe(refB);
    expect(decode(await asPage('/checkout/sessions/bank-details', a.token, 'query')).reference).toBe(refA);
  });

  it('requires currency when several exist, naming them', async () => {
    const { token } = await checkout(multi);
    const response = await asPage('/checkout/sessions/bank-details', token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'currency is required: several bank currencies are available: EUR, GBP, USD' });
  });

  it('returns the account of the chosen currency', async () => {
    const { token } = await checkout(multi, 250);
    const gbp = decode(await asPage('/checkout/sessions/bank-details?currency=GBP', token));
    expect(gbp).toMatchObject({
      account_name: 'Multi Ltd',
      bank_name: 'Barclays',
      sort_code: '20-20-15',
      account_number: '55555555',
      currency: 'GBP',
      amount_usd: 250,
    });
    const usd = decode(await asPage('/checkout/sessions/bank-details?currency=USD', token, 'query'));
    expect(usd).toMatchObject({ iban: null, account_number: '000123456789', swift_bic: 'CHASUS33', currency: 'USD' });
  });

  it.each([
    ['CHF', 'inactive'],
    ['JPY', 'never configured'],
  ])('rejects %s (%s) with the list of available currencies', async (currency) => {
    const { token } = await checkout(multi);
    const response = await asPage(`/checkout/sessions/bank-details?currency=${currency}`, token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `currency ${currency} is not available; available bank currencies: EUR, GBP, USD` });
  });

  it('rejects a currency that is not an ISO 4217 code', async () => {
    const { token } = await checkout(single);
    const response = await asPage('/checkout/sessions/bank-details?currency=eur', token);
    expect(response.body).toEqual({
      error: 'Validation failed',
      details: { validation_errors: ['currency: Must be an ISO 4217 currency code such as EUR'] },
    });
  });

  it('refuses bank details when the merchant has no bank account', async () => {
    const { token } = await checkout(none);
    const response = await asPage('/checkout/sessions/bank-details', token);
    expect(response).toMatchObject({
      status: 400,
      body: { error: 'Bank transfer is not available for this session: there are no bank currencies' },
    });
  });

  it('stops offering bank details once the session is paid or closed', async () => {
    const { sessionId, token } = await checkout(single);
    await service.db.sql`update sessions set status = 'completed' where id = ${sessionId}`;
    const response = await asPage('/checkout/sessions/bank-details', token);
    expect(response).toMatchObject({ status: 409, body: { error: 'Session is completed; bank transfer is no longer offered for it' } });
  });
});

describe('supported_methods.bank', () => {
  it('is true exactly when the merchant has an active bank account at creation', async () => {
    const read = async (m: TestMerchant) => {
      const { sessionId } = await checkout(m);
      const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: m.testKey });
      return CheckoutSession.parse(got.body.data).supported_methods;
    };
    expect(await read(single)).toEqual({ crypto: true, bank: true });
    expect(await read(none)).toEqual({ crypto: true, bank: false });
  });
});
