// The API process: `npm run api` with DATABASE_URL and TEMPORAL_ADDRESS set.
import { Client, Connection } from '@temporalio/client';
import { startApiServer } from '../api/server';
import { loadChainsConfig } from '../config/chains';
import { loadConfig, requireDatabaseUrl, requireSessionTokenSecret } from '../config/env';
import { createSql } from '../db/client';
import { createChainRegistry } from '../domain/chainRegistry';
import { createLogger, errorFields } from '../observability/logger';
import { onShutdown } from './shutdown';

const config = loadConfig();
// Read once at start-up with the rest: the tokens and quote endpoints show what select-payment will use.
const registry = createChainRegistry(loadChainsConfig());
const logger = createLogger(config.logLevel, 'api');
try {
  requireSessionTokenSecret(config);
  const sql = createSql(requireDatabaseUrl(config));
  const connection = await Connection.connect({ address: config.temporal.address });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const api = await startApiServer({ config, sql, temporal, logger, registry }, config.host, config.port);
  logger.info({ url: api.url, internal: api.internalUrl ?? 'off' }, 'api listening');
  onShutdown(logger, async () => {
    await api.close();
    await connection.close();
    await sql.end({ timeout: 5 });
  });
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'api failed to start');
  process.exit(1);
}
