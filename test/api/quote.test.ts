// GET /checkout/quote (docs/api.md#tokens-quotes-and-payment-selection): exact integer pricing, stored quotes, and no silent 1:1 in live mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteResponse } from '../../domain/wire/quote';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let priced: TestService;
let merchant: TestMerchant;
let pricedMerchant: TestMerchant;

beforeAll(async () => {
  [service, priced] = await Promise.all([
    startTestService({ worker: false }),
    startTestService({ worker: false, env: { LIVE_TOKEN_PRICES_USD: 'USDC=1,USDT=0.9998', QUOTE_TTL_SECONDS: '600' } }),
  ]);
  merchant = await createTestMerchant(service.db.sql);
  pricedMerchant = await createTestMerchant(priced.db.sql);
});
afterAll(() => Promise.all([service?.stop(), priced?.stop()]));

const quote = (query: string, apiKey = merchant.testKey, on = service) => call(on.baseUrl, 'GET', `/checkout/quote${query}`, { apiKey });

describe('GET /checkout/quote', () => {
  it('prices test keys 1:1 and stores the quote', async () => {
    const response = await quote('?amount_usd=25.5&token=USDC&chain=base');
    expect(response.status).toBe(200);
    const data = QuoteResponse.parse(response.body.data);
    expect(data).toMatchObject({
      amount_usd: 25.5,
      token: 'USDC',
      chain: 'base',
      token_amount: '25.500000',
      token_amount_base_units: '25500000',
      decimals: 6,
      rate: '1',
      price_source: 'test-mode fixed 1:1',
    });
    expect(data.quote_id).toMatch(/^qt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(Math.abs(Date.parse(data.expires_at) - Date.parse(data.created_at) - service.config.quoteTtlSeconds * 1000)).toBeLessThan(2000);

    const [row] = await service.db
      .sql`select mode, token, chain, amount_usd_cents, token_base_units::text as units, decimals, session_id from quotes where id = ${data.quote_id}`;
    expect(row).toEqual({
      mode: 'test',
      token: 'USDC',
      chain: 'base',
      amount_usd_cents: 2550n,
      units: '25500000',
      decimals: 6,
      session_id: null,
    });
  });

  it('uses 18 decimals on bsc and still answers 6-decimal token amounts', async () => {
    const data = QuoteResponse.parse((await quote('?amount_usd=0.01&token=USDC&chain=bsc', pricedMerchant.liveKey, priced)).body.data);
    expect(data).toMatchObject({ token_amount: '0.010000', token_amount_base_units: '10000000000000000', decimals: 18 });
  });

  it('prices live keys at the configured rate, rounding up so the merchant is never short', async () => {
    const response = await quote('?amount_usd=100&token=USDT&chain=tron', pricedMerchant.liveKey, priced);
    expect(response.status).toBe(200);
    const data = QuoteResponse.parse(response.body.data);
    // 100 / 0.9998 = 100.020004000800…, rounded up at the 6th decimal.
    expect(data).toMatchObject({
      token_amount: '100.020005',
      token_amount_base_units: '100020005',
      rate: '0.9998',
      price_source: 'operator-configured LIVE_TOKEN_PRICES_USD',
    });
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBeGreaterThan(590_000);
  });

  it('refuses live quotes when no price is configured, rather than assuming 1:1', async () => {
    const response = await quote('?amount_usd=10&token=USDC&chain=base', merchant.liveKey);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'Live quotes for USDC are unavailable: no price is configured for it' });
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await service.db.sql`select id from quotes where mode = 'live'`).toHaveLength(0);
  });

  it.each([
    ['live', 'USDC', 'tron'],
    ['test', 'USDT', 'base'],
  ] as const)('refuses a pair %s keys cannot pay in (%s on %s), as select-payment does', async (mode, token, chain) => {
    const response = await quote(
      `?amount_usd=10&token=${token}&chain=${chain}`,
      mode === 'live' ? pricedMerchant.liveKey : pricedMerchant.testKey,
      priced,
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'Validation failed',
      details: { validation_errors: [`chain: ${token} on ${chain} is not available with ${mode} keys`] },
    });
  });

  it.each([
    ['?token=USDC&chain=base', ['amount_usd: Required']],
    ['?amount_usd=0&token=USDC&chain=base', ['amount_usd: Number must be greater than 0']],
    ['?amount_usd=1.005&token=USDC&chain=base', ['amount_usd: Must be a USD amount with at most 2 decimal places, such as 25.50']],
    ['?amount_usd=-1&token=USDC&chain=base', ['amount_usd: Must be a USD amount with at most 2 decimal places, such as 25.50']],
    ['?amount_usd=100000000&token=USDC&chain=base', ['amount_usd: Number must be less than or equal to 99999999.99']],
    ['?amount_usd=5&token=DAI&chain=base', ["token: Invalid enum value. Expected 'USDC' | 'USDT', received 'DAI'"]],
    ['?amount_usd=5&token=USDC', ['chain: Required']],
    ['?amount_usd=5&amount_usd=6&token=USDC&chain=base', ['amount_usd: Expected string, received array']],
  ])('rejects %s', async (query, errors) => {
    const response = await quote(query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Validation failed', details: { validation_errors: errors } });
  });

  it('requires the API key', async () => {
    const response = await call(service.baseUrl, 'GET', '/checkout/quote?amount_usd=5&token=USDC&chain=base', {
      headers: { 'x-service-user-type': 'checkout' },
    });
    expect(response).toMatchObject({ status: 401, body: { error: 'Missing API key: send it in the x-api-key header' } });
  });
});
