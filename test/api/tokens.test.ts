// GET /checkout/tokens (docs/api.md#chains-and-tokens): all 16 token/chain pairs, filters, and clear refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_FACTS, CHAINS, TOKENS } from '../../domain/chains/chains';
import { TokenListResponse } from '../../domain/chains/tokenCatalog';
import { TESTNETS, TOKEN_CONTRACTS } from '../../domain/chains/tokenContracts';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

async function list(query = '', apiKey = merchant.testKey) {
  return call(service.baseUrl, 'GET', `/checkout/tokens${query}`, { apiKey });
}

describe('GET /checkout/tokens', () => {
  it('lists all 16 pairs with contracts, chain ids and chain facts, token-major', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    const { tokens } = TokenListResponse.parse(response.body.data);
    expect(tokens.map((t) => `${t.symbol}/${t.chain}`)).toEqual(TOKENS.flatMap((token) => CHAINS.map((chain) => `${token}/${chain}`)));
    for (const entry of tokens) {
      const facts = CHAIN_FACTS[entry.chain];
      const deployments = TOKEN_CONTRACTS[entry.symbol][entry.chain];
      expect(entry.chain_id).toBe(facts.chainId ?? null);
      expect(entry.confirmations_required).toBe(facts.confirmations);
      expect(entry.average_block_time_seconds).toBe(facts.averageBlockTimeSeconds);
      expect(entry.estimated_finality_seconds).toBe(facts.estimatedFinalitySeconds);
      expect(entry.mainnet?.address ?? null).toBe(deployments.mainnet?.address ?? null);
      expect(entry.mainnet?.decimals ?? null).toBe(deployments.mainnet?.decimals ?? null);
      expect(entry.testnet.network).toBe(TESTNETS[entry.chain].name);
      expect(entry.testnet.contract?.address ?? null).toBe(deployments.testnet?.address ?? null);
    }
  });

  it('matches the documented chain figures for a few chains', async () => {
    const { tokens } = TokenListResponse.parse((await list('?token=USDC')).body.data);
    const byChain = Object.fromEntries(tokens.map((t) => [t.chain, t]));
    expect(byChain.ethereum).toMatchObject({
      chain_id: '0x1',
      confirmations_required: 12,
      average_block_time_seconds: 12,
      estimated_finality_seconds: 150,
    });
    expect(byChain.polygon).toMatchObject({ chain_id: '0x89', confirmations_required: 128, estimated_finality_seconds: 270 });
    expect(byChain.arbitrum).toMatchObject({ chain_id: '0xa4b1', average_block_time_seconds: 0.25, estimated_finality_seconds: 16 });
    expect(byChain.solana).toMatchObject({ chain_id: null, confirmations_required: 32, average_block_time_seconds: 0.4 });
    expect(byChain.tron).toMatchObject({ chain_id: null, confirmations_required: 19 });
    expect(byChain.bsc?.mainnet).toMatchObject({ decimals: 18, canonical: false });
    expect(byChain.solana?.mainnet).toEqual({
      address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      decimals: 6,
      canonical: true,
      note: null,
    });
  });

  it('shows USDC on tron honestly as unavailable on mainnet', async () => {
    const response = await list('?token=USDC&chain=tron');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      tokens: [
        {
          symbol: 'USDC',
          chain: 'tron',
          chain_id: null,
          confirmations_required: 19,
          average_block_time_seconds: 3,
          estimated_finality_seconds: 60,
          mainnet: null,
          testnet: { network: 'TRON Nile', chain_id: null, contract: null },
          payable: { live: false, test: false },
        },
      ],
    });
  });

  it.each([
    ['?token=USDT', 8, (t: { symbol: string }) => t.symbol === 'USDT'],
    ['?chain=base', 2, (t: { chain: string }) => t.chain === 'base'],
    ['?token=USDT&chain=bsc', 1, (t: { symbol: string; chain: string }) => t.symbol === 'USDT' && t.chain === 'bsc'],
  ])('filters with %s', async (query, count, predicate) => {
    const { tokens } = TokenListResponse.parse((await list(query)).body.data);
    expect(tokens).toHaveLength(count);
    expect(tokens.every(predicate)).toBe(true);
  });

  it('answers the same list to live keys', async () => {
    expect((await list('', merchant.liveKey)).body).toEqual((await list()).body);
  });

  it.each([
    ['?token=DAI', ["token: Invalid enum value. Expected 'USDC' | 'USDT', received 'DAI'"]],
    ['?token=usdc', ["token: Invalid enum value. Expected 'USDC' | 'USDT', received 'usdc'"]],
    [
      '?chain=avalanche',
      [
        "chain: Invalid enum value. Expected 'ethereum' | 'polygon' | 'arbitrum' | 'optimism' | 'base' | 'bsc' | 'solana' | 'tron', received 'avalanche'",
      ],
    ],
    ['?network=mainnet', ['network: Unrecognized field']],
  ])('rejects %s with a validation error, not an empty list', async (query, errors) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Validation failed', details: { validation_errors: errors } });
  });

  it('requires the API key and user-type headers', async () => {
    const noKey = await call(service.baseUrl, 'GET', '/checkout/tokens', { headers: { 'x-service-user-type': 'checkout' } });
    expect(noKey).toMatchObject({ status: 401, body: { error: 'Missing API key: send it in the x-api-key header' } });
    const noType = await call(service.baseUrl, 'GET', '/checkout/tokens', { headers: { 'x-api-key': merchant.testKey } });
    expect(noType).toMatchObject({ status: 401, body: { error: 'Missing x-service-user-type header' } });
    const badKey = await list('', 'mk_test_nope');
    expect(badKey).toMatchObject({ status: 403, body: { error: 'Invalid API key' } });
  });
});
