// The service as the end-to-end benchmarks drive it, in one process: the session, webhook and signer workers on
// the bench's Temporal dev server (a task queue of their own), the API on loopback and a merchant with a test key.
// Indexers are the scenario's: each follows its chain its own way. A scenario that kills workers runs the session
// and webhook workers as processes of its own (`separateWorkers`, with `workerEnv`), and only the signer here.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { pino } from 'pino';
import { startApiServer } from '../api/server';
import { loadChainsConfig } from '../config/chains';
import { loadConfig, type Config } from '../config/env';
import { paymentOfferFromConfig, paymentOfferOf } from '../config/paymentOffer';
import type { PaymentOffer } from '../domain/session/payablePairs';
import { createApiKey } from '../db/repositories/apiKeys';
import { insertMerchant, type Merchant, type NewMerchant } from '../db/repositories/merchants';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { activityDepsFromConfig } from '../worker/createWorker';
import { webhookDeliveryDepsFromConfig } from '../worker/createWebhookWorker';
import { keepSolanaAddressPoolAhead } from '../signer/depositAddresses/solanaAddressPool';
import type { SignerDeps } from '../signer/activities';
import { createSignerWorkers, signerDatabasePools, signerDepsFromConfig } from '../signer/worker';
import { startInProcessWorkers, type RunningWorkers } from '../worker/inProcessWorkers';
import type { BenchDatabase, BenchEnvironment } from './environment';

export interface BenchServiceOptions {
  /** Names the task queue, so scenarios sharing the dev server never take each other's tasks. */
  name: string;
  /** The chain variables the worker, the API and the signer read (RPC_URLS_…, TOKEN_…). */
  chainEnv: Record<string, string>;
  /** The signer's own variables (SOLANA_TREASURY_KEY_TEST, SOLANA_PAYOUT_MEMO); none: it holds no treasury. */
  signerEnv?: Record<string, string>;
  /** Further API variables, e.g. a higher MAX_OPEN_SESSIONS_TEST. */
  apiEnv?: Record<string, string>;
  merchant: Omit<NewMerchant, 'name'>;
  /** Only the signer worker runs in this process; the scenario starts bin/worker.ts and bin/webhookWorker.ts. */
  separateWorkers?: boolean;
  /** The chains the API takes to be indexed, where the scenario runs no indexer for them; else those of `chainEnv`. */
  indexed?: PaymentOffer['indexed'];
}

/** An API answer other than 2xx with data, with its status. */
export class BenchHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface BenchService {
  temporal: Client;
  namespace: string;
  merchant: Merchant;
  /** The environment of a worker process on this service's task queue, database and chains. */
  workerEnv: Record<string, string>;
  /** POSTs with the merchant's test key; the answer's `data`, or throws with the status. */
  post(path: string, body: unknown): Promise<Record<string, string>>;
  /** GETs with the merchant's test key; the answer's `data`, or throws with the status. */
  get(path: string): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export async function startBenchService(env: BenchEnvironment, db: BenchDatabase, options: BenchServiceOptions): Promise<BenchService> {
  const workerEnv = {
    APP_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: env.temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-${options.name}-${randomBytes(4).toString('hex')}`,
    ...options.chainEnv,
  };
  const config = loadConfig(
    {
      ...workerEnv,
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...options.signerEnv,
      ...options.apiEnv,
    },
    'dev',
  );
  const signer = await signerDepsFromConfig(config, loadChainsConfig(options.chainEnv));
  const nativeConnection = await NativeConnection.connect({ address: env.temporalAddress });
  const workers = options.separateWorkers
    ? await startSignerWorker(nativeConnection, config, signer)
    : await startInProcessWorkers({
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
  const offer = options.indexed ? paymentOfferOf(config, registry, options.indexed) : paymentOfferFromConfig(config, registry);
  const api = await startApiServer({ config, sql: db.sql, temporal, logger: pino({ level: 'silent' }), registry, offer }, '127.0.0.1', 0);
  const merchant = await insertMerchant(db.sql, { name: `Bench merchant (${options.name})`, ...options.merchant });
  const key = await createApiKey(db.sql, merchant.id, 'test');
  const headers = { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': key.raw };
  const call = async (path: string, init: RequestInit) => {
    const response = await fetch(`${api.url}${path}`, init);
    const json = (await response.json()) as { data?: Record<string, string> };
    if (!response.ok || !json.data) throw new BenchHttpError(response.status, `${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    temporal,
    namespace: config.temporal.namespace,
    merchant,
    workerEnv,
    post: (path, body) => call(path, { method: 'POST', headers, body: JSON.stringify(body) }),
    get: (path) => call(path, { method: 'GET', headers }),
    async stop() {
      await api.close();
      await workers.stop();
      await nativeConnection.close();
      await connection.close();
      await Promise.all(signerDatabasePools(signer).map((pool) => pool.end({ timeout: 5 })));
    },
  };
}

async function startSignerWorker(connection: NativeConnection, config: Config, signer: SignerDeps): Promise<RunningWorkers> {
  const workers = await createSignerWorkers({
    connection,
    namespace: config.temporal.namespace,
    sessionTaskQueue: config.temporal.taskQueue,
    signer,
  });
  const running = Promise.all(workers.map((worker) => worker.run()));
  const pool =
    signer.addressPool &&
    keepSolanaAddressPoolAhead(signer.addressPool, signer.depositSeeds, (message, fields) =>
      Runtime.instance().logger.warn(message, fields),
    );
  return {
    async stop() {
      for (const worker of workers) worker.shutdown();
      await running;
      await pool?.stop();
    },
  };
}
