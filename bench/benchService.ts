// The service as the end-to-end benchmarks drive it, in one process: the session, webhook and signer workers on
// the bench's Temporal dev server (a task queue of their own), the API on loopback and a merchant with a test key.
// Indexers are the scenario's: each follows its chain its own way.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { pino } from 'pino';
import { startApiServer } from '../api/server';
import { loadChainsConfig } from '../config/chains';
import { loadConfig } from '../config/env';
import { createApiKey } from '../db/repositories/apiKeys';
import { insertMerchant, type Merchant, type NewMerchant } from '../db/repositories/merchants';
import { createChainRegistry } from '../domain/chainRegistry';
import { activityDepsFromConfig } from '../worker/createWorker';
import { webhookDeliveryDepsFromConfig } from '../worker/createWebhookWorker';
import { signerDepsFromConfig } from '../worker/createSignerWorker';
import { startInProcessWorkers } from '../worker/inProcessWorkers';
import type { BenchDatabase, BenchEnvironment } from './environment';

export interface BenchServiceOptions {
  /** Names the task queue, so scenarios sharing the dev server never take each other's tasks. */
  name: string;
  /** The chain variables the worker, the API and the signer read (RPC_URLS_…, TOKEN_…). */
  chainEnv: Record<string, string>;
  /** The signer's own variables (SOLANA_TREASURY_KEY_TEST, SOLANA_PAYOUT_MEMO); none: it holds no treasury. */
  signerEnv?: Record<string, string>;
  merchant: Omit<NewMerchant, 'name'>;
}

export interface BenchService {
  temporal: Client;
  namespace: string;
  merchant: Merchant;
  /** POSTs with the merchant's test key; the answer's `data`, or throws with the status. */
  post(path: string, body: unknown): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export async function startBenchService(env: BenchEnvironment, db: BenchDatabase, options: BenchServiceOptions): Promise<BenchService> {
  const config = loadConfig(
    {
      APP_ENV: 'test',
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_TASK_QUEUE: `bench-${options.name}-${randomBytes(4).toString('hex')}`,
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...options.signerEnv,
    },
    'dev',
  );
  const signer = await signerDepsFromConfig(config, loadChainsConfig(options.chainEnv));
  const nativeConnection = await NativeConnection.connect({ address: env.temporalAddress });
  const workers = await startInProcessWorkers({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: activityDepsFromConfig(config, db.sql, options.chainEnv),
    deliveries: webhookDeliveryDepsFromConfig(config, db.sql),
    maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
    signer,
  });
  const connection = await Connection.connect({ address: env.temporalAddress });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const registry = createChainRegistry(loadChainsConfig(options.chainEnv));
  const api = await startApiServer({ config, sql: db.sql, temporal, logger: pino({ level: 'silent' }), registry }, '127.0.0.1', 0);
  const merchant = await insertMerchant(db.sql, { name: `Bench merchant (${options.name})`, ...options.merchant });
  const key = await createApiKey(db.sql, merchant.id, 'test');
  const headers = { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': key.raw };
  return {
    temporal,
    namespace: config.temporal.namespace,
    merchant,
    async post(path, body) {
      const response = await fetch(`${api.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await response.json()) as { data?: Record<string, string> };
      if (!response.ok || !json.data) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    },
    async stop() {
      await api.close();
      await workers.stop();
      await nativeConnection.close();
      await connection.close();
      await signer.treasuries?.test?.sql.end({ timeout: 5 });
    },
  };
}
