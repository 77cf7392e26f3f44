// Time from the block that gives a deposit its required confirmations to the merchant's webhook arriving: the
// local chain, the EVM indexer following it (by polling, or woken by a newHeads websocket subscription), the real
// worker running the session and webhook workflows on the Temporal dev server, and a loopback webhook receiver.
// The clock starts when that block is mined.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { pino } from 'pino';
import type { Address } from 'viem';
import { startApiServer } from '../api/server';
import { loadChainsConfig } from '../config/chains';
import { loadConfig } from '../config/env';
import { createApiKey } from '../db/repositories/apiKeys';
import { insertMerchant } from '../db/repositories/merchants';
import { createChainRegistry } from '../domain/chainRegistry';
import { CHAIN_FACTS } from '../domain/chains';
import { createTemporalSignalSender } from '../indexers/core/signalSender';
import { startEvmIndexers } from '../indexers/evm/startEvmIndexers';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import type { LocalChain } from '../toolchain/localChain/localChain';
import { activityDepsFromConfig } from '../worker/createWorker';
import { webhookDeliveryDepsFromConfig } from '../worker/createWebhookWorker';
import { signerDepsFromConfig } from '../worker/createSignerWorker';
import { startInProcessWorkers } from '../worker/inProcessWorkers';
import { startWebhookReceiver } from '../test/support/webhookReceiver';
import type { BenchEnvironment } from './environment';
import type { ChainTokens } from './indexerCost';
import { median, progress, type Row } from './report';

const RUNS = 5;

interface FollowMode {
  label: string;
  env: Record<string, string>;
}
const PAYER = 1;
const STEP_TIMEOUT_MS = 60_000;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function benchWebhookLatency(env: BenchEnvironment, chain: LocalChain, tokens: ChainTokens): Promise<Row[]> {
  const db = await env.database();
  const chainEnv = {
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
    TOKEN_USDT_BASE_TESTNET: `${tokens.usdt}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
  };
  const blockTimeMs = CHAIN_FACTS.base.averageBlockTimeSeconds * 1000;
  const modes: FollowMode[] = [
    { label: 'indexer polling every 100 ms', env: { INDEXER_POLL_INTERVAL_MS: '100' } },
    { label: `indexer polling at base's block time (${blockTimeMs} ms, the default)`, env: {} },
    { label: 'indexer woken by a newHeads websocket subscription (WS_URLS_BASE_TESTNET)', env: { WS_URLS_BASE_TESTNET: chain.rpcUrl.replace(/^http/, 'ws') } },
  ];
  const config = loadConfig({
    APP_ENV: 'test',
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: env.temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-webhooks-${randomBytes(4).toString('hex')}`,
    SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_PER_MINUTE: '1000000',
  }, 'dev');
  const silent = pino({ level: 'silent' });
  const receiver = await startWebhookReceiver();
  const arrivals = new Map<string, number>();
  receiver.respondWith((delivery) => {
    if (delivery.headers['x-service-event'] === 'payment.completed') {
      const sessionId = (JSON.parse(delivery.rawBody) as { data?: { session_id?: string } }).data?.session_id ?? /cs_[0-9A-Z]{26}/.exec(delivery.rawBody)?.[0];
      if (sessionId && !arrivals.has(sessionId)) arrivals.set(sessionId, performance.now());
    }
    return 200;
  });

  progress('webhook latency: starting the worker (bundles the workflows), the API and the indexer');
  // The worker's runtime logs through pino like bin/worker.ts, here at warn so progress lines stay readable.
  installWorkerRuntime({ logger: pino({ level: 'warn' }), metricsBindAddress: undefined });
  const nativeConnection = await NativeConnection.connect({ address: env.temporalAddress });
  const workers = await startInProcessWorkers({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: activityDepsFromConfig(config, db.sql, chainEnv),
    deliveries: webhookDeliveryDepsFromConfig(config, db.sql),
    maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
    signer: await signerDepsFromConfig(config),
  });
  const connection = await Connection.connect({ address: env.temporalAddress });
  const temporal = new Client({ connection });
  const api = await startApiServer({ config, sql: db.sql, temporal, logger: silent, registry: createChainRegistry(loadChainsConfig(chainEnv)) }, '127.0.0.1', 0);
  try {
    const merchant = await insertMerchant(db.sql, { name: 'Bench merchant', supportedTokens: { USDC: ['base'] } });
    const key = await createApiKey(db.sql, merchant.id, 'test');
    const headers = { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': key.raw };
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${api.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await response.json()) as { data?: Record<string, string> };
      if (!response.ok || !json.data) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const confirmations = CHAIN_FACTS.base.confirmations;
    const rows: Row[] = [];
    for (const mode of modes) {
      // As bin/indexer.ts runs it: the advisory lock, and LISTEN for new watches so a fresh deposit address is seen at once.
      const chains = loadChainsConfig({ ...chainEnv, ...mode.env });
      const indexers = await startEvmIndexers({
        sql: db.sql,
        registry: createChainRegistry(chains),
        tuning: chains.indexer,
        sender: createTemporalSignalSender(temporal, { namespace: config.temporal.namespace }),
        logger: silent,
      });
      try {
        const latencies: number[] = [];
        for (let run = 1; run <= RUNS; run++) {
          const created = await post('/checkout/sessions', { merchant_id: merchant.id, transaction_id: `bench-${run}-${randomBytes(4).toString('hex')}`, amount_usd: 10, webhook_url: receiver.url });
          const sessionId = created.session_id as string;
          const selected = await post('/checkout/sessions/select-payment', { session_id: sessionId, token: 'USDC', chain: 'base' });
          await chain.transfer(tokens.usdc, PAYER, selected.deposit_address as Address, BigInt(selected.amount_base_units as string));
          await chain.mine(confirmations - 2);
          // One block short of the depth, processed by the indexer: the next block is the one that confirms.
          await until('the deposit one confirmation short', async () => {
            const [row] = await db.sql<{ confirmations: number }[]>`select confirmations from deposits where session_id = ${sessionId}`;
            return row && row.confirmations === confirmations - 1 ? row : undefined;
          });
          const minedAt = performance.now();
          await chain.mine(1);
          const arrivedAt = await until('the payment.completed webhook', () => arrivals.get(sessionId));
          latencies.push(arrivedAt - minedAt);
          progress(`webhook latency, ${mode.label}, run ${run}/${RUNS}: ${(arrivedAt - minedAt).toFixed(0)} ms`);
        }
        rows.push({
          benchmark: 'confirming block → webhook received',
          figure: `median ${median(latencies).toFixed(0)} ms (min ${Math.min(...latencies).toFixed(0)}, max ${Math.max(...latencies).toFixed(0)})`,
          detail: `${RUNS} payments on base (${confirmations} confirmations), ${mode.label}`,
        });
      } finally {
        await indexers.stop();
      }
    }
    return rows;
  } finally {
    await api.close();
    await workers.stop();
    await nativeConnection.close();
    await connection.close();
    await receiver.close();
  }
}
