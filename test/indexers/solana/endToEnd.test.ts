// The whole path with nothing stood in but the validator: a session created and paid for through the HTTP API,
// its real checkoutSession workflow on the real worker, a real SPL transfer to the deposit wallet on the local
// chain, and the Solana indexer reading it over JSON-RPC and signalling through the real Temporal sender.
import type { Address } from '@solana/kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadChainsConfig } from '../../../config/chains';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { IndexerMetrics } from '../../../indexers/core/metrics';
import { createTemporalSignalSender } from '../../../indexers/core/signalSender';
import type { ChainIndexer } from '../../../indexers/core/chainIndexer';
import { buildSolanaIndexer } from '../../../indexers/solana/startSolanaIndexers';
import { getStateQuery } from '../../../workflows/messages';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../../support/factories';
import { call } from '../../support/http';
import { startTestService, type TestService } from '../../support/service';
import { LocalSolanaChain } from '../../../toolchain/localSolana/localSolanaChain';
import { startSolanaRpcServer, type SolanaRpcServer } from '../../../toolchain/localSolana/solanaRpcServer';
import { createMint, fundedSigner, mintTo, transfer, type TestMint } from '../../../toolchain/localSolana/splToken';

describe('Solana deposit → session workflow, end to end', () => {
  let service: TestService;
  let chain: LocalSolanaChain;
  let rpc: SolanaRpcServer;
  let usdc: TestMint;
  let merchant: TestMerchant;
  let indexer: ChainIndexer;

  beforeAll(async () => {
    chain = new LocalSolanaChain();
    rpc = await startSolanaRpcServer(chain);
    usdc = await createMint(chain, 6);
    chain.produce();
    // The API quotes, and the indexer watches, the same mint: both read it from this configuration.
    const env = {
      RPC_URLS_SOLANA_TESTNET: rpc.url,
      TOKEN_USDC_SOLANA_TESTNET: `${usdc.address}:6`,
      INDEXER_START_BLOCK_SOLANA_TESTNET: chain.currentSlot.toString(),
    };
    service = await startTestService({ env });
    merchant = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['solana'] } });
    const config = loadChainsConfig(env);
    indexer = buildSolanaIndexer(createChainRegistry(config).get('solana', 'testnet'), {
      sql: service.db.sql,
      tuning: config.indexer,
      sender: createTemporalSignalSender(service.temporal, { namespace: service.config.temporal.namespace }),
      logger: pino({ level: 'silent' }),
      metrics: new IndexerMetrics(),
    });
  });

  afterAll(async () => {
    await Promise.allSettled([rpc?.close(), service?.stop()]);
  });

  async function drain(): Promise<void> {
    while (await indexer.tick());
  }

  async function status(sessionId: string): Promise<string> {
    const response = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    return response.body.data?.status as string;
  }

  test('a USDC transfer of the quoted amount on solana takes the session through confirming to completed', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { amount_usd: 12.34 }),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: merchant.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'solana' },
    });
    expect(selected.status).toBe(200);
    expect(selected.body.data?.token_address).toBe(usdc.address);
    const depositAddress = selected.body.data?.deposit_address as Address;
    const amount = BigInt(selected.body.data?.amount_base_units as string);

    const customer = await fundedSigner(chain);
    await mintTo(chain, usdc, customer.address, amount);
    chain.produce();
    await drain();
    const paid = await transfer(chain, usdc, customer, [{ to: depositAddress, amount }]);
    chain.produce();
    await drain();
    await vi.waitFor(async () => expect(await status(sessionId)).toBe('confirming'), { timeout: 20_000, interval: 100 });

    chain.produce(CHAIN_FACTS.solana.confirmations - 2);
    await drain();
    const handle = service.temporal.workflow.getHandle(sessionId);
    await vi.waitFor(
      async () => expect((await handle.query(getStateQuery)).deposits[0]?.confirmations).toBe(CHAIN_FACTS.solana.confirmations - 1),
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    expect(await status(sessionId)).toBe('confirming');

    chain.produce(1);
    await drain();
    await vi.waitFor(async () => expect(await status(sessionId)).toBe('completed'), { timeout: 30_000, interval: 100 });
    const state = await handle.query(getStateQuery);
    expect(state.receivedBaseUnits).toBe(amount.toString());
    expect(state.deposits).toEqual([
      expect.objectContaining({
        txHash: paid.signature,
        amount: amount.toString(),
        toAddress: depositAddress,
        fromAddress: customer.address,
        stage: 'confirmed',
        confirmations: CHAIN_FACTS.solana.confirmations,
      }),
    ]);
  });
});
