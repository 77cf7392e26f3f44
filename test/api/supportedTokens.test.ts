// supported_tokens lists only pairs the key's network can take (the test networks for a test key, mainnet
// for a live key), the rest go to unsupported_tokens, and the hosted page and select-payment agree with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOKEN_CHAIN_PAIRS, type Chain, type TokenChainSet, type TokenSymbol } from '../../domain/chains/chains';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService();
  merchant = await createTestMerchant(service.db.sql, { supportedTokens: ALL_TOKEN_CHAIN_PAIRS });
});
afterAll(() => service?.stop());

const pairsOf = (set: TokenChainSet): [TokenSymbol, Chain][] =>
  Object.entries(set.tokens).flatMap(([token, entry]) =>
    (entry?.chain ?? []).map((chain) => [token as TokenSymbol, chain] as [TokenSymbol, Chain]),
  );

async function createSession(apiKey: string): Promise<{ sessionId: string; token: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey, body: sessionRequest(merchant.merchant.id) });
  expect(created.status).toBe(201);
  const token = new URL(created.body.data?.checkout_url_with_token as string).searchParams.get('token') as string;
  return { sessionId: created.body.data?.session_id as string, token };
}

describe('supported_tokens of a test-key session', () => {
  it('moves the pairs no test network takes to unsupported_tokens, and the hosted page offers the same', async () => {
    const { sessionId, token } = await createSession(merchant.testKey);
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    const supported = got.body.data?.supported_tokens as TokenChainSet;
    const unsupported = got.body.data?.unsupported_tokens as TokenChainSet;
    expect(pairsOf(unsupported)).toEqual(
      expect.arrayContaining([
        ['USDC', 'tron'],
        ['USDT', 'solana'],
      ]),
    );
    expect(pairsOf(supported)).not.toContainEqual(['USDC', 'tron']);
    expect(pairsOf(supported)).not.toContainEqual(['USDT', 'solana']);
    expect(pairsOf(supported)).toContainEqual(['USDC', 'base']);
    expect(pairsOf(supported).length + pairsOf(unsupported).length).toBe(16);

    const page = await call(service.baseUrl, 'GET', '/checkout/sessions/current', {
      headers: { authorization: `Bearer ${token}`, 'x-service-user-type': 'checkout' },
    });
    expect(page.body.data?.supported_tokens).toEqual(supported);
  });

  it('has select-payment accept every pair it lists, and refuse the others as unsupported', async () => {
    const { sessionId } = await createSession(merchant.testKey);
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    const select = (token: TokenSymbol, chain: Chain) =>
      call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
        apiKey: merchant.testKey,
        body: { session_id: sessionId, token, chain },
      });
    for (const [token, chain] of pairsOf(got.body.data?.supported_tokens as TokenChainSet)) {
      const response = await select(token, chain);
      expect(response.status, `${token} on ${chain}: ${JSON.stringify(response.body)}`).toBe(200);
    }
    for (const [token, chain] of pairsOf(got.body.data?.unsupported_tokens as TokenChainSet)) {
      const response = await select(token, chain);
      expect(response.status, `${token} on ${chain}`).toBe(400);
      expect(response.body.details?.validation_errors?.[0]).toMatch(
        new RegExp(`^chain: ${token} on ${chain} is not supported for this session`),
      );
    }
  });
});

describe('supported_tokens of a live-key session', () => {
  it('lists what mainnet takes: USDT on solana, not USDC on tron', async () => {
    const { sessionId } = await createSession(merchant.liveKey);
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.liveKey });
    expect(pairsOf(got.body.data?.supported_tokens as TokenChainSet)).toContainEqual(['USDT', 'solana']);
    expect(pairsOf(got.body.data?.unsupported_tokens as TokenChainSet)).toContainEqual(['USDC', 'tron']);
  });
});
