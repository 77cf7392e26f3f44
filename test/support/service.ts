// The service as the tests meet it: the real API over HTTP and real workers (session, webhook, signer), both on the run's
// Temporal dev server and a fresh Postgres database, each logged in as its own least-privilege role
// (db/serviceRoles.ts) as in production. Each file gets its own task queue.
import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { pino } from 'pino';
import { inject } from 'vitest';
import { startApiServer } from '../../api/server';
import { ApiTemporalConnection } from '../../api/temporalConnection';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig, type Config } from '../../config/env';
import { createSql } from '../../db/client';
import { createChainRegistry, type ChainRegistry } from '../../domain/chains/chainRegistry';
import { CHAINS } from '../../domain/chains/chains';
import type { PaymentOffer } from '../../domain/session/payablePairs';
import { activityDepsFromConfig } from '../../worker/createWorker';
import type { SignerDeps } from '../../activities/signer';
import { signerDatabasePools, signerDepsFromConfig } from '../../worker/createSignerWorker';
import { webhookDeliveryDepsFromConfig } from '../../worker/createWebhookWorker';
import { startInProcessWorkers, type RunningWorkers } from '../../worker/inProcessWorkers';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestService {
  baseUrl: string;
  /** The API's internal listener: /metrics and the detailed /readyz. */
  internalUrl: string;
  config: Config;
  db: TestDatabase;
  temporal: Client;
  /** From the same `env` the worker reads. */
  registry: ChainRegistry;
  /** What the API offers with the registry: SETTLEMENT_LIVE_ROUTES and the chains the test says are indexed. */
  offer: PaymentOffer;
  stop(): Promise<void>;
}

/**
 * Every chain of both networks: the tests stand in for the indexers, recording deposits themselves, so every chain is
 * watched unless a test says otherwise.
 */
export const EVERY_CHAIN_INDEXED: PaymentOffer['indexed'] = { testnet: CHAINS, mainnet: CHAINS };

/**
 * `env` overrides configuration variables, e.g. `{ RATE_LIMIT_PER_MINUTE: '3' }`; `indexed` the chains the API takes
 * to be watched by an indexer (EVERY_CHAIN_INDEXED).
 */
export async function startTestService(
  options: { worker?: boolean; env?: Record<string, string>; indexed?: PaymentOffer['indexed'] } = {},
): Promise<TestService> {
  const db = await createTestDatabase();
  const address = inject('temporalAddress');
  const config = loadConfig(
    {
      APP_ENV: 'test',
      TEMPORAL_ADDRESS: address,
      TEMPORAL_TASK_QUEUE: `test-${randomBytes(4).toString('hex')}`,
      DATABASE_URL: db.url,
      PUBLIC_BASE_URL: 'http://checkout.test',
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      INTERNAL_PORT: '0',
      ...options.env,
    },
    'dev',
  );
  const connection = await ApiTemporalConnection.connect({ address });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });

  let workers: RunningWorkers | undefined;
  let signer: SignerDeps | undefined;
  let nativeConnection: NativeConnection | undefined;
  const apiSql = createSql(db.urlAs('checkout_api'), { max: 5 });
  const workerSql = createSql(db.urlAs('checkout_worker'), { max: 5 });
  const webhooksSql = createSql(db.urlAs('checkout_webhooks'), { max: 5 });
  if (options.worker !== false) {
    nativeConnection = await NativeConnection.connect({ address });
    workers = await startInProcessWorkers({
      connection: nativeConnection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      activities: activityDepsFromConfig(config, workerSql, options.env ?? {}),
      deliveries: webhookDeliveryDepsFromConfig(config, webhooksSql),
      maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
      // Each process as its own role, as in production (db/serviceRoles.ts).
      signer: (signer = await signerDepsFromConfig(
        { ...config, databaseUrl: db.urlAs('checkout_signer') },
        loadChainsConfig(options.env ?? {}),
      )),
      workflowBundle: { code: inject('workflowBundleCode') },
    });
  }

  const registry = createChainRegistry(loadChainsConfig(options.env ?? {}));
  const offer: PaymentOffer = { liveRoutes: config.settlementLiveRoutes, indexed: options.indexed ?? EVERY_CHAIN_INDEXED };
  const api = await startApiServer({ config, sql: apiSql, temporal, logger: pino({ level: 'silent' }), registry, offer }, '127.0.0.1', 0);
  return {
    baseUrl: api.url,
    internalUrl: api.internalUrl ?? '',
    config,
    db,
    temporal,
    registry,
    offer,
    async stop() {
      await api.close();
      await workers?.stop();
      await nativeConnection?.close();
      await connection.close();
      await Promise.all([
        apiSql.end({ timeout: 5 }),
        workerSql.end({ timeout: 5 }),
        webhooksSql.end({ timeout: 5 }),
        ...(signer ? signerDatabasePools(signer) : []).map((pool) => pool.end({ timeout: 5 })),
      ]);
      await db.drop();
    },
  };
}
