// `npm start`: the whole service on its embedded defaults, in one process tree: an embedded Postgres
// (unless DATABASE_URL is set), a Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS is set),
// migrations, a demo merchant with a fresh test key, the worker and the API.
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { startApiServer } from '../api/server';
import { loadConfig } from '../config/env';
import { createSql } from '../db/client';
import { startEmbeddedPostgres } from '../db/embeddedPostgres';
import { ensureDatabase } from '../db/ensureDatabase';
import { migrate } from '../db/migrate';
import { createApiKey } from '../db/repositories/apiKeys';
import { findMerchantByName, insertMerchant } from '../db/repositories/merchants';
import { ALL_TOKEN_CHAIN_PAIRS } from '../domain/chains';
import { createLogger, errorFields } from '../observability/logger';
import { startTemporalDevServer } from '../toolchain/temporalDevServer';
import { activityDepsFromConfig, createWorker } from '../worker/createWorker';
import { onShutdown } from './shutdown';

const DEMO_MERCHANT = 'Demo merchant';
const config = loadConfig();
const logger = createLogger(config.logLevel, 'dev');
const stops: Array<() => Promise<void>> = [];
const progress = (line: string) => console.log(`▸ ${line}`);

// The dev command orders shutdown itself: API first, then the worker drains, then the servers stop.
Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('WARN') });

try {
  const dataDir = resolve(config.dataDir);
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    progress(`starting embedded Postgres on 127.0.0.1:${config.embeddedPostgresPort} (data in ${join(dataDir, 'postgres')})`);
    const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: config.embeddedPostgresPort, persistent: true });
    stops.unshift(() => pg.stop());
    await ensureDatabase(pg.adminUrl, 'checkout');
    databaseUrl = pg.urlFor('checkout');
  }
  const sql = createSql(databaseUrl);
  stops.unshift(() => sql.end({ timeout: 5 }));
  await migrate(sql, progress);

  let temporalAddress = config.temporal.address;
  let temporalUi: string | undefined;
  if (!process.env.TEMPORAL_ADDRESS) {
    const [host, port] = temporalAddress.split(':');
    progress(`starting Temporal dev server on ${temporalAddress} with its Web UI on port ${config.temporal.uiPort}`);
    const temporalServer = await startTemporalDevServer({
      port: Number(port),
      uiPort: config.temporal.uiPort,
      dbFile: join(dataDir, 'temporal.sqlite'),
      log: (line) => logger.debug({ temporal: line }),
    });
    stops.unshift(() => temporalServer.stop());
    temporalAddress = temporalServer.address;
    temporalUi = temporalServer.uiUrl?.replace('127.0.0.1', host ?? '127.0.0.1');
  }

  const nativeConnection = await NativeConnection.connect({ address: temporalAddress });
  const worker = await createWorker({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: activityDepsFromConfig(config, sql),
  });
  const workerRun = worker.run();
  stops.unshift(async () => {
    worker.shutdown();
    await workerRun;
    await nativeConnection.close();
  });

  const connection = await Connection.connect({ address: temporalAddress });
  stops.unshift(() => connection.close());
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const api = await startApiServer({ config, sql, temporal, logger: createLogger(config.logLevel, 'api') }, config.host, config.port);
  stops.unshift(() => api.close());

  const merchant =
    (await findMerchantByName(sql, DEMO_MERCHANT)) ?? (await insertMerchant(sql, { name: DEMO_MERCHANT, supportedTokens: ALL_TOKEN_CHAIN_PAIRS }));
  const key = await createApiKey(sql, merchant.id, 'test', 'npm start');

  console.log(`
Stablecoin checkout is running (Ctrl-C stops everything)
  API               ${api.url}
  Temporal Web UI   ${temporalUi ?? '(external Temporal: see its own UI)'}
  Temporal          ${temporalAddress} (namespace ${config.temporal.namespace}, task queue ${config.temporal.taskQueue})
  Postgres          ${config.databaseUrl ? 'DATABASE_URL' : `embedded on 127.0.0.1:${config.embeddedPostgresPort}, data in ${join(dataDir, 'postgres')}`}
  Demo merchant     ${merchant.id}
  Test API key      ${key.raw}
                    (shown once, stored only as a hash; every start mints a new one)

Create a session:
  curl -s -X POST ${api.url}/checkout/sessions \\
    -H 'content-type: application/json' -H 'x-service-user-type: checkout' -H 'x-api-key: ${key.raw}' \\
    -d '{"merchant_id":"${merchant.id}","transaction_id":"order-'$(date +%s)'","amount_usd":25.5,"webhook_url":"https://example.com/webhooks"}'
`);
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'could not start the service');
  for (const stop of stops) await stop().catch(() => undefined);
  process.exit(1);
}

onShutdown(logger, async () => {
  for (const stop of stops) await stop();
});
