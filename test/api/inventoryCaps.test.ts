// A held pair at its INVENTORY_CAPS cap is offered to no new session (supported_tokens, GET /checkout/tokens'
// payable) while a session offered it before keeps it and may still choose it; the gauge says so
// (docs/settlement.md#held-inventory).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLedger } from '../../db/repositories/ledger';
import { ALL_TOKEN_CHAIN_PAIRS, type TokenChainSet } from '../../domain/chains/chains';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({
    env: {
      INVENTORY_CAPS: 'USDT:bsc=100,USDT:tron=100',
      TOKEN_USDT_BSC_TESTNET: '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd:18',
      TOKEN_USDT_TRON_TESTNET: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf:6',
    },
  });
  merchant = await createTestMerchant(service.db.sql, { supportedTokens: ALL_TOKEN_CHAIN_PAIRS });
});
afterAll(() => service?.stop());

async function createSession(): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

async function supported(sessionId: string): Promise<TokenChainSet> {
  const got = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
  return got.body.data?.supported_tokens as TokenChainSet;
}

/** The treasury paid out against `units` of bsc USDT whose deposits wait at their addresses. */
const paidOutAgainstBscUsdt = (groupId: string, units: bigint) =>
  postLedger(service.db.sql, {
    groupId,
    mode: 'test',
    reference: groupId,
    entries: [
      { account: 'deposits:bsc', asset: 'usdt:bsc', amount: units },
      { account: 'cross_chain_clearing', asset: 'usdt:bsc', amount: -units },
    ],
  });

async function gauge(): Promise<string[]> {
  const text = await (await fetch(`${service.internalUrl}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith('checkout_inventory_at_cap{') && line.includes('mode="test"'));
}

describe('a held pair at its inventory cap', () => {
  it('is offered below its cap, then to no new session once the exposure reaches it, while an earlier session keeps it', async () => {
    await paidOutAgainstBscUsdt('inventory-cap-test:below', 99n * 10n ** 18n);
    const before = await createSession();
    expect((await supported(before)).tokens.USDT?.chain).toContain('bsc');
    expect(await gauge()).toContain('checkout_inventory_at_cap{mode="test",token="USDT",chain="bsc"} 0');

    await paidOutAgainstBscUsdt('inventory-cap-test:reached', 10n ** 18n);
    const after = await createSession();
    expect((await supported(after)).tokens.USDT?.chain).not.toContain('bsc');
    expect((await supported(after)).tokens.USDT?.chain).toContain('tron');
    expect(await gauge()).toEqual(
      expect.arrayContaining([
        'checkout_inventory_at_cap{mode="test",token="USDT",chain="bsc"} 1',
        'checkout_inventory_at_cap{mode="test",token="USDT",chain="tron"} 0',
      ]),
    );

    const tokens = await call(service.baseUrl, 'GET', '/checkout/tokens?token=USDT&chain=bsc', { apiKey: merchant.testKey });
    expect((tokens.body.data?.tokens as Array<{ payable: unknown }>)[0]?.payable).toEqual({ live: false, test: false });

    expect((await supported(before)).tokens.USDT?.chain).toContain('bsc');
    const chosen = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: merchant.testKey,
      body: { session_id: before, token: 'USDT', chain: 'bsc' },
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
  });
});
