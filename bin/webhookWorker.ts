// The webhook worker process: `npm run webhook-worker` with DATABASE_URL and TEMPORAL_ADDRESS set. It runs
// only webhook delivery attempts, on their own task queue, so no receiver can slow payment work down.
import { NativeConnection } from '@temporalio/worker';
import { loadConfig, requireDatabaseUrl } from '../config/env';
import { temporalConnectionOptions } from '../config/temporalTls';
import { createSql } from '../db/client';
import { requireRoleRights } from '../db/serviceRoles';
import { webhookTaskQueue } from '../domain/taskQueues';
import { createLogger, errorFields } from '../observability/logger';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import { createWebhookWorker, webhookDeliveryDepsFromConfig } from '../worker/createWebhookWorker';

const config = loadConfig(process.env, 'webhookWorker');
const logger = createLogger(config.logLevel, 'webhook-worker');
const metricsBindAddress = config.metrics.workerPort ? `${config.metrics.host}:${config.metrics.workerPort}` : undefined;
try {
  installWorkerRuntime({ logger, metricsBindAddress });
  const sql = createSql(requireDatabaseUrl(config));
  // It reaches merchant-chosen URLs, so it runs as a role that can write nothing else (db/serviceRoles.ts).
  await requireRoleRights(sql, 'checkout_webhooks');
  const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
  const worker = await createWebhookWorker({
    connection,
    namespace: config.temporal.namespace,
    sessionTaskQueue: config.temporal.taskQueue,
    deliveries: webhookDeliveryDepsFromConfig(config, sql),
    maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
    shutdownGraceTimeMs: config.shutdownTimeoutMs,
  });
  logger.info(
    {
      taskQueue: webhookTaskQueue(config.temporal.taskQueue),
      maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
      perMerchant: config.webhookMaxInFlightPerMerchant,
    },
    'webhook worker running',
  );
  await worker.run();
  await connection.close();
  await sql.end({ timeout: 5 });
  logger.info('webhook worker stopped');
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'webhook worker failed');
  process.exit(1);
}
