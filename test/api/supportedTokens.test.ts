// supported_tokens lists only pairs the key's network can take (the test networks for a test key, mainnet
// for a live key) on a chain an indexer watches, and for a live key with a settlement route; the rest go to
// unsupported_tokens, and the hosted page, select-payment and /checkout/tokens agree with it.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type RunningApi } from '../../api/server';
import { paymentOfferOf } from '../../config/paymentOffer';
import { createSql, type Sql } from '../../db/client';
import { NO_DEPOSIT_FORWARDERS } from '../../domain/addresses/depositForwarder';
import { ALL_TOKEN_CHAIN_PAIRS, CHAINS, type Chain, type TokenChainSet, type TokenSymbol } from '../../domain/chains/chains';
import { ALL_PAIRS, pairRoute } from '../../domain/settlement/pairRoutes';
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
  it('lists only the pairs with a live settlement route (USDC on solana by default): not USDT on solana, nor USDC on tron', async () => {
    const { sessionId } = await createSession(merchant.liveKey);
    const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.liveKey });
    expect(got.body.data?.supported_tokens).toEqual({ tokens: { USDC: { chain: ['solana'] } } });
    expect(pairsOf(got.body.data?.unsupported_tokens as TokenChainSet)).toEqual(
      expect.arrayContaining([
        ['USDT', 'solana'],
        ['USDC', 'tron'],
      ]),
    );
  });
});

describe('pairs on chains no indexer watches', () => {
  let partial: TestService;
  let shop: TestMerchant;

  beforeAll(async () => {
    partial = await startTestService({
      worker: false,
      indexed: { testnet: ['base'], mainnet: ['base'] },
      env: {
        SETTLEMENT_LIVE_ROUTES: 'USDC:solana,USDC:base',
        // USDC:base's CCTP route: two RPC providers, the collector and the deposit contracts (never called here).
        RPC_URLS_BASE_MAINNET: 'https://base-one.example,https://base-two.example',
        EVM_DEPOSIT_COLLECTOR_LIVE: '0x00000000000000000000000000000000000000c0',
        EVM_DEPOSIT_FACTORY_LIVE: '0x00000000000000000000000000000000000000f0',
        EVM_DEPOSIT_FORWARDER_LIVE: '0x00000000000000000000000000000000000000f1',
      },
    });
    shop = await createTestMerchant(partial.db.sql, { supportedTokens: ALL_TOKEN_CHAIN_PAIRS });
  });
  afterAll(() => partial?.stop());

  it('are offered in neither mode, refused by select-payment, and marked not payable in /checkout/tokens', async () => {
    const create = async (apiKey: string) => {
      const created = await call(partial.baseUrl, 'POST', '/checkout/sessions', { apiKey, body: sessionRequest(shop.merchant.id) });
      expect(created.status).toBe(201);
      const sessionId = created.body.data?.session_id as string;
      return { sessionId, got: await call(partial.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey }) };
    };
    const test = await create(shop.testKey);
    expect(pairsOf(test.got.body.data?.supported_tokens as TokenChainSet).every(([, chain]) => chain === 'base')).toBe(true);
    expect(pairsOf(test.got.body.data?.supported_tokens as TokenChainSet)).toContainEqual(['USDC', 'base']);
    // USDC:solana is routed live, but no indexer watches solana: a payment there would never be seen.
    const live = await create(shop.liveKey);
    expect(live.got.body.data?.supported_tokens).toEqual({ tokens: { USDC: { chain: ['base'] } } });

    const refused = await call(partial.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: shop.testKey,
      body: { session_id: test.sessionId, token: 'USDC', chain: 'solana' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details?.validation_errors?.[0]).toMatch(/^chain: USDC on solana is not supported for this session/);

    const tokens = await call(partial.baseUrl, 'GET', '/checkout/tokens?token=USDC', { apiKey: shop.testKey });
    const payable = Object.fromEntries(
      (tokens.body.data?.tokens as Array<{ chain: string; payable: unknown }>).map((entry) => [entry.chain, entry.payable]),
    );
    expect(payable).toMatchObject({
      base: { live: true, test: true },
      solana: { live: false, test: false },
      tron: { live: false, test: false },
    });
  });
});

describe('live pairs by their route back to the treasury', () => {
  // One world whose configuration gives every route what it needs, and a second API over it given none of the route
  // pieces (and no indexer on solana, the treasury route's one need): the same 16 pairs, offered by the first only.
  let routed: TestService;
  let bare: RunningApi;
  let bareSql: Sql;
  let shop: TestMerchant;
  const evm = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

  beforeAll(async () => {
    routed = await startTestService({
      worker: false,
      env: {
        SETTLEMENT_LIVE_ROUTES: ALL_PAIRS.map(({ token, chain }) => `${token}:${chain}`).join(','),
        // Two providers on every chain (never called here): the live signer re-reads deposits from the second.
        ...Object.fromEntries(
          CHAINS.map((chain) => [`RPC_URLS_${chain.toUpperCase()}_MAINNET`, `https://${chain}-one.example,https://${chain}-two.example`]),
        ),
        EVM_DEPOSIT_COLLECTOR_LIVE: evm(0xc0),
        EVM_DEPOSIT_FACTORY_LIVE: evm(0xf0),
        EVM_DEPOSIT_FORWARDER_LIVE: evm(0xf1),
        TRON_DEPOSIT_COLLECTOR_LIVE: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
        TRON_DEPOSIT_FACTORY_LIVE: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        TRON_DEPOSIT_FORWARDER_LIVE: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
        ...Object.fromEntries(
          (['ETHEREUM', 'OPTIMISM', 'ARBITRUM', 'BASE', 'POLYGON'] as const).flatMap((chain) => [
            [`SWAP_ROUTER_${chain}_MAINNET`, evm(0xa1)],
            [`SWAP_QUOTER_${chain}_MAINNET`, evm(0xa2)],
          ]),
        ),
        INVENTORY_CAPS: 'USDC:bsc=10000,USDT:bsc=10000,USDT:tron=10000,USDT:solana=10000',
        INVENTORY_REBALANCE_ADDRESS_BSC_LIVE: evm(0xb1),
        INVENTORY_REBALANCE_ADDRESS_TRON_LIVE: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
        INVENTORY_REBALANCE_ADDRESS_SOLANA_LIVE: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
      },
    });
    shop = await createTestMerchant(routed.db.sql, { supportedTokens: ALL_TOKEN_CHAIN_PAIRS });
    const unrouted = {
      ...routed.config,
      depositCollectors: { test: undefined, live: undefined },
      tronDepositCollectors: { test: undefined, live: undefined },
      depositForwarders: NO_DEPOSIT_FORWARDERS,
      swaps: { ...routed.config.swaps, contracts: { mainnet: {}, testnet: {} } },
      inventory: { caps: new Map(), rebalanceAddresses: { test: {}, live: {} } },
    };
    const offer = paymentOfferOf(unrouted, routed.registry, { testnet: CHAINS, mainnet: CHAINS.filter((chain) => chain !== 'solana') });
    bareSql = createSql(routed.db.urlAs('checkout_api'), { max: 2 });
    bare = await startApiServer(
      {
        config: { ...unrouted, internal: { ...unrouted.internal, port: undefined } },
        sql: bareSql,
        temporal: routed.temporal,
        logger: pino({ level: 'silent' }),
        registry: routed.registry,
        offer,
      },
      '127.0.0.1',
      0,
    );
  });
  afterAll(async () => {
    await bare?.close();
    await bareSql?.end({ timeout: 5 });
    await routed?.stop();
  });

  /** Per pair, whether the API at `baseUrl` offers it live: GET /checkout/tokens' payable.live, and a live session's supported_tokens. */
  async function liveOffer(baseUrl: string): Promise<Record<string, { payable: boolean; supported: boolean }>> {
    const created = await call(baseUrl, 'POST', '/checkout/sessions', { apiKey: shop.liveKey, body: sessionRequest(shop.merchant.id) });
    expect(created.status).toBe(201);
    const session = await call(baseUrl, 'GET', `/checkout/sessions/${created.body.data?.session_id as string}`, { apiKey: shop.liveKey });
    const supported = pairsOf(session.body.data?.supported_tokens as TokenChainSet).map(([token, chain]) => `${token}:${chain}`);
    const offered: Record<string, { payable: boolean; supported: boolean }> = {};
    for (const token of ['USDC', 'USDT'] as const) {
      const tokens = await call(baseUrl, 'GET', `/checkout/tokens?token=${token}`, { apiKey: shop.liveKey });
      for (const entry of tokens.body.data?.tokens as Array<{ chain: string; payable: { live: boolean } }>) {
        offered[`${token}:${entry.chain}`] = { payable: entry.payable.live, supported: supported.includes(`${token}:${entry.chain}`) };
      }
    }
    return offered;
  }

  it('offers each of the 16 pairs once its route is configured (USDC:tron, which has none, never), and none without', async () => {
    const [configured, unconfigured] = [await liveOffer(routed.baseUrl), await liveOffer(bare.url)];
    for (const { token, chain } of ALL_PAIRS) {
      const pair = `${token}:${chain}`;
      const routedPair = pairRoute(token, chain) !== null;
      expect(configured[pair], `${pair} with its route configured`).toEqual({ payable: routedPair, supported: routedPair });
      expect(unconfigured[pair], `${pair} without`).toEqual({ payable: false, supported: false });
    }
  });
});
