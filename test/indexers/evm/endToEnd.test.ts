// The whole path with nothing stood in: a session created and paid for through the HTTP API, its real
// checkoutSession workflow on the real worker, the EVM indexer on a local chain signalling it through the
// real Temporal sender, until the session completes.
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadChainsConfig } from '../../../config/chains';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import type { ChainIndexer } from '../../../indexers/core/chainIndexer';
import { getStateQuery } from '../../../workflows/messages';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../../support/factories';
import { call } from '../../support/http';
import { startTestService, type TestService } from '../../support/service';
import { baseTestnetIndexer, testnetIndexer } from '../../support/serviceIndexer';
import { deployTokens, type Tokens } from './indexerFixture';

const PAYER = 1;

describe('EVM deposit → session workflow, end to end', () => {
  let service: TestService;
  let chain: LocalChain;
  let tokens: Tokens;
  let merchant: TestMerchant;
  let indexer: ChainIndexer;

  beforeAll(async () => {
    [service, chain] = await Promise.all([startTestService(), createLocalChain()]);
    tokens = await deployTokens(chain, 6);
    await chain.mint(tokens.usdc, chain.account(PAYER).address, 10n ** 15n);
    merchant = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] } });
    const config = loadChainsConfig({
      RPC_URLS_BASE_TESTNET: chain.rpcUrl,
      CHAIN_ID_BASE_TESTNET: String(chain.chainId),
      TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
      INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
    });
    indexer = baseTestnetIndexer(service, config);
  });

  afterAll(async () => {
    await Promise.allSettled([chain?.stop(), service?.stop()]);
  });

  async function drain(): Promise<void> {
    while (await indexer.tick());
  }

  async function status(sessionId: string): Promise<string> {
    const response = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    return response.body.data?.status as string;
  }

  test('a USDC transfer of the quoted amount on base takes the session through confirming to completed', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { amount_usd: 12.34 }),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: merchant.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(selected.status).toBe(200);
    const depositAddress = selected.body.data?.deposit_address as Address;
    const amount = BigInt(selected.body.data?.amount_base_units as string);

    await drain();
    const paid = await chain.transfer(tokens.usdc, PAYER, depositAddress, amount);
    await drain();
    await vi.waitFor(async () => expect(await status(sessionId)).toBe('confirming'), { timeout: 20_000, interval: 100 });

    await chain.mine(CHAIN_FACTS.base.confirmations - 2);
    await drain();
    const handle = service.temporal.workflow.getHandle(sessionId);
    await vi.waitFor(
      async () => expect((await handle.query(getStateQuery)).deposits[0]?.confirmations).toBe(CHAIN_FACTS.base.confirmations - 1),
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    expect(await status(sessionId)).toBe('confirming');

    await chain.mine(1);
    await drain();
    await vi.waitFor(async () => expect(await status(sessionId)).toBe('completed'), { timeout: 30_000, interval: 100 });
    const state = await handle.query(getStateQuery);
    expect(state.receivedBaseUnits).toBe(amount.toString());
    expect(state.deposits).toEqual([
      expect.objectContaining({
        txHash: paid.hash,
        logIndex: paid.logIndex,
        amount: amount.toString(),
        stage: 'confirmed',
        confirmations: CHAIN_FACTS.base.confirmations,
      }),
    ]);
  });

  test('USDC sent to the deposit address on another EVM chain is recorded and kept for a refund, the session untouched', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { amount_usd: 5 }),
    });
    const sessionId = created.body.data?.session_id as string;
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: merchant.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(selected.status).toBe(200);
    const depositAddress = selected.body.data?.deposit_address as Address;
    // The local node stands in for arbitrum's test network: the same address exists there, as on every EVM chain.
    const arbitrum = testnetIndexer(
      service,
      loadChainsConfig({
        RPC_URLS_ARBITRUM_TESTNET: chain.rpcUrl,
        CHAIN_ID_ARBITRUM_TESTNET: String(chain.chainId),
        TOKEN_USDC_ARBITRUM_TESTNET: `${tokens.usdc}:6`,
        INDEXER_START_BLOCK_ARBITRUM_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
      }),
      'arbitrum',
    );
    const drainArbitrum = async () => {
      while (await arbitrum.tick());
    };
    await drainArbitrum();
    const sent = await chain.transfer(tokens.usdc, PAYER, depositAddress, 5_000_000n);
    await chain.mine(CHAIN_FACTS.arbitrum.confirmations - 1);
    await drainArbitrum();

    const handle = service.temporal.workflow.getHandle(sessionId);
    await vi.waitFor(async () => expect((await handle.query(getStateQuery)).refunds).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const state = await handle.query(getStateQuery);
    expect(state.refunds).toEqual([
      expect.objectContaining({ kind: 'deposit', chain: 'arbitrum', txHash: sent.hash, token: 'USDC', amountBaseUnits: '5000000' }),
    ]);
    expect(state).toMatchObject({ status: 'awaiting_payment', receivedBaseUnits: '0' });
    expect(state.transitions.map((t) => t.reason)).toContain(
      `deposit ${sent.hash} recorded for refund: USDC on arbitrum received, but the session expects USDC on base`,
    );
    await vi.waitFor(
      async () =>
        expect(await service.db.sql`select chain, stage, credited, late from deposits where session_id = ${sessionId}`).toEqual([
          { chain: 'arbitrum', stage: 'confirmed', credited: false, late: true },
        ]),
      { timeout: 20_000, interval: 100 },
    );
    expect(await status(sessionId)).toBe('awaiting_payment');
  });
});
