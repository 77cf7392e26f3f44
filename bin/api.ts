// The API process: `npm run api` with DATABASE_URL and TEMPORAL_ADDRESS set.
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { startApiServer } from '../api/server';
import { ApiTemporalConnection } from '../api/temporalConnection';
import { loadChainsConfig } from '../config/chains';
import { loadConfig, requireDatabaseUrl } from '../config/env';
import { resolveSessionTokenSecret } from '../api/sessionTokenSecret';
import { createSql } from '../db/client';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { createLogger, errorFields } from '../observability/logger';
import { onShutdown } from './shutdown';

const loaded = loadConfig(process.env, 'api');
// Read once at start-up with the rest: the tokens and quote endpoints show what select-payment will use.
const registry = createChainRegistry(loadChainsConfig());
const logger = createLogger(loaded.logLevel, 'api');
try {
  const sql = createSql(requireDatabaseUrl(loaded));
  const sessionTokenSecret = await resolveSessionTokenSecret(loaded, sql, join(loaded.dataDir, 'session-token-secret'));
  const config = { ...loaded, sessionTokenSecret };
  const connection = await ApiTemporalConnection.connect({ address: config.temporal.address });
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
