// The worker process: `npm run worker` with DATABASE_URL and TEMPORAL_ADDRESS set.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadChainsConfig } from '../config/chains';
import { loadConfig, requireDatabaseUrl } from '../config/env';
import { paymentOfferFromConfig } from '../config/paymentOffer';
import { temporalConnectionOptions } from '../config/temporalTls';
import { createSql } from '../db/client';
import { requireRoleRights } from '../db/serviceRoles';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { createLogger, errorFields } from '../observability/logger';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import { activityDepsFromConfig, createWorker } from '../worker/createWorker';
import { openMissingDepositRefunds } from '../activities/refunds/missingDepositRefunds';
import { refundStarter } from '../activities/refunds/startRefundWorkflow';
import { startReconciliationSweeper } from '../worker/reconciliationSweeper';
import { startRetentionSweeper } from '../worker/retentionSweeper';
import { checkTronFactories } from '../worker/tronFactoryChecks';
import { checkLiveXpubsAtStart } from '../worker/liveXpubCheck';
import { treasuryViewsFromConfig } from '../worker/treasuryViews';
import { ensureSweepSchedules, evmSweepScopes } from '../worker/sweepSchedules';
import { ensureTransferSchedules } from '../worker/transferSchedules';

const config = loadConfig(process.env, 'worker');
const logger = createLogger(config.logLevel, 'worker');
const metricsBindAddress = config.metrics.workerPort ? `${config.metrics.host}:${config.metrics.workerPort}` : undefined;
try {
  // Before any connection or worker: SDK and activity log lines become JSON, Core serves Prometheus metrics.
  installWorkerRuntime({ logger, metricsBindAddress });
  const chains = loadChainsConfig(process.env);
  const registry = createChainRegistry(chains);
  // The worker settles by SETTLEMENT_LIVE_ROUTES as the API offers by them: a route the API refuses at start is
  // refused here too, whichever process a deployment starts or restarts first.
  paymentOfferFromConfig(config, registry);
  // Before the worker hands out any Tron forwarder address.
  await checkTronFactories(config.depositForwarders, chains);
  const sql = createSql(requireDatabaseUrl(config));
  await requireRoleRights(sql, 'checkout_worker');
  const liveXpubs = await checkLiveXpubsAtStart(sql, config.depositXpubs.live);
  if (liveXpubs?.verdict === 'unpublished') logger.warn(liveXpubs.reason);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
  const worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: activityDepsFromConfig(config, sql),
    shutdownGraceTimeMs: config.shutdownTimeoutMs,
  });
  const clientConnection = await Connection.connect(temporalConnectionOptions(config.temporal));
  const temporal = new Client({ connection: clientConnection, namespace: config.temporal.namespace });
  await ensureSweepSchedules(temporal, {
    taskQueue: config.temporal.taskQueue,
    intervalSeconds: config.sweepIntervalSeconds,
    evmScopes: evmSweepScopes(config, registry),
  });
  await ensureTransferSchedules(temporal, { taskQueue: config.temporal.taskQueue, intervalSeconds: config.transferIntervalSeconds });
  const sweeper = startRetentionSweeper(sql, config.retention, logger);
  const reconciliation = startReconciliationSweeper(
    sql,
    treasuryViewsFromConfig(config, registry, chains.tronHttpApi),
    config.reconciliationIntervalMinutes,
    logger,
    (mode) =>
      openMissingDepositRefunds(
        { sql, refundClaimDays: config.refundClaimDays, startRefund: refundStarter(temporal, config.temporal.taskQueue) },
        mode,
      ),
  );
  logger.info(
    {
      taskQueue: config.temporal.taskQueue,
      sweepIntervalSeconds: config.sweepIntervalSeconds,
      metrics: metricsBindAddress ? `http://${metricsBindAddress}/metrics` : 'off',
    },
    'worker running',
  );
  // The SDK installs its own SIGINT/SIGTERM handling: run() resolves once the worker has drained (running
  // activities get shutdownGraceTimeMs to finish, then are cancelled and retried elsewhere by Temporal).
  await worker.run();
  await sweeper?.stop();
  await reconciliation?.stop();
  await clientConnection.close();
  await connection.close();
  await sql.end({ timeout: 5 });
  logger.info('worker stopped');
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'worker failed');
  process.exit(1);
}
