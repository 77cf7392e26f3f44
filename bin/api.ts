// The API process: `npm run api` with DATABASE_URL and TEMPORAL_ADDRESS set.
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { startApiServer } from '../api/server';
import { ApiTemporalConnection } from '../api/temporalConnection';
import { loadChainsConfig } from '../config/chains';
import { loadConfig, requireDatabaseUrl } from '../config/env';
import { temporalConnectionOptions } from '../config/temporalTls';
import { paymentOfferFromConfig } from '../config/paymentOffer';
import { resolveSessionTokenSecret } from '../api/sessionTokenSecret';
import { resolveTotpEncryptionKey, sealPlaintextTotpSecrets } from '../api/totpEncryptionKey';
import { createSql } from '../db/client';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { createLogger, errorFields } from '../observability/logger';
import { onShutdown } from './shutdown';

const loaded = loadConfig(process.env, 'api');
// Read once at start-up with the rest: the tokens and quote endpoints show what select-payment will use.
const registry = createChainRegistry(loadChainsConfig(process.env));
const logger = createLogger(loaded.logLevel, 'api');
try {
  // The indexer process runs for every chain with an RPC URL: the API reads the same variables to offer only those.
  const offer = paymentOfferFromConfig(loaded, registry);
  const sql = createSql(requireDatabaseUrl(loaded));
  const sessionTokenSecret = await resolveSessionTokenSecret(loaded, sql, join(loaded.dataDir, 'session-token-secret'));
  const totpEncryptionKey = await resolveTotpEncryptionKey(loaded, sql, join(loaded.dataDir, 'totp-encryption-key'));
  const sealed = await sealPlaintextTotpSecrets(sql, totpEncryptionKey);
  if (sealed > 0) logger.info({ sealed }, 'sealed the TOTP secrets stored in plain text');
  const config = { ...loaded, sessionTokenSecret, totpEncryptionKey };
  const connection = await ApiTemporalConnection.connect(temporalConnectionOptions(config.temporal));
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const api = await startApiServer({ config, sql, temporal, logger, registry, offer }, config.host, config.port);
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
