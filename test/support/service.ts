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
import { paymentOfferOf } from '../../config/paymentOffer';
import { createSql } from '../../db/client';
import { createChainRegistry, type ChainRegistry } from '../../domain/chains/chainRegistry';
import { CHAINS } from '../../domain/chains/chains';
import type { PaymentOffer } from '../../domain/session/payablePairs';
import { activityDepsFromConfig } from '../../worker/createWorker';
import type { SignerDeps } from '../../signer/activities';
import { signerDatabasePools, signerDepsFromConfig } from '../../signer/worker';
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
  /**
   * What the API offers with the registry: the chains the test says are indexed, and the SETTLEMENT_LIVE_ROUTES pairs
   * whose routes lack nothing (config/paymentOffer.ts).
   */
  offer: PaymentOffer;
  /**
   * Stops the in-process workers and starts them again, the signer from the service's variables with `changes`
   * (undefined removes one): a signer restarted with another treasury key, or without one. The session and webhook
   * workers restart with it, unchanged; they run in one process here as in `npm start`.
   */
  restartWorkers(changes: Record<string, string | undefined>): Promise<void>;
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
  const variables: Record<string, string> = {
    APP_ENV: 'test',
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(4).toString('hex')}`,
    DATABASE_URL: db.url,
    PUBLIC_BASE_URL: 'http://checkout.test',
    SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    INTERNAL_PORT: '0',
    ...options.env,
  };
  const config = loadConfig(variables, 'dev');
  const connection = await ApiTemporalConnection.connect({ address });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });

  let workers: RunningWorkers | undefined;
  const signers: SignerDeps[] = [];
  let nativeConnection: NativeConnection | undefined;
  const apiSql = createSql(db.urlAs('checkout_api'), { max: 5 });
  const workerSql = createSql(db.urlAs('checkout_worker'), { max: 5 });
  /** The in-process workers, the signer's from `signerConfig`. */
  let startWorkers: ((signerConfig: Config) => Promise<RunningWorkers>) | undefined;
  const webhooksSql = createSql(db.urlAs('checkout_webhooks'), { max: 5 });
  if (options.worker !== false) {
    const native = (nativeConnection = await NativeConnection.connect({ address }));
    const activities = activityDepsFromConfig(config, workerSql, options.env ?? {});
    const deliveries = webhookDeliveryDepsFromConfig(config, webhooksSql);
    startWorkers = async (signerConfig) => {
      // Each process as its own role, as in production (db/serviceRoles.ts).
      const signer = await signerDepsFromConfig(
        { ...signerConfig, databaseUrl: db.urlAs('checkout_signer') },
        loadChainsConfig(options.env ?? {}),
      );
      signers.push(signer);
      return startInProcessWorkers({
        connection: native,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        activities,
        deliveries,
        maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
        signer,
        workflowBundle: { code: inject('workflowBundleCode') },
      });
    };
    workers = await startWorkers(config);
  }

  const registry = createChainRegistry(loadChainsConfig(options.env ?? {}));
  const offer = paymentOfferOf(config, registry, options.indexed ?? EVERY_CHAIN_INDEXED);
  const api = await startApiServer({ config, sql: apiSql, temporal, logger: pino({ level: 'silent' }), registry, offer }, '127.0.0.1', 0);
  return {
    baseUrl: api.url,
    internalUrl: api.internalUrl ?? '',
    config,
    db,
    temporal,
    registry,
    offer,
    async restartWorkers(changes) {
      if (!workers || !startWorkers) throw new Error('the service runs no workers to restart');
      await workers.stop();
      workers = undefined;
      const changed = Object.entries({ ...variables, ...changes }).filter((entry): entry is [string, string] => entry[1] !== undefined);
      workers = await startWorkers(loadConfig(Object.fromEntries(changed), 'dev'));
    },
    async stop() {
      await api.close();
      await workers?.stop();
      await nativeConnection?.close();
      await connection.close();
      await Promise.all([
        apiSql.end({ timeout: 5 }),
        workerSql.end({ timeout: 5 }),
        webhooksSql.end({ timeout: 5 }),
        ...signers.flatMap(signerDatabasePools).map((pool) => pool.end({ timeout: 5 })),
      ]);
      await db.drop();
    },
  };
}
