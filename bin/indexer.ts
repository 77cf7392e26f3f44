// The indexer process: `npm run indexer` with DATABASE_URL, TEMPORAL_ADDRESS and RPC_URLS_<CHAIN>_<NETWORK>
// set. Runs one indexer loop per configured EVM chain/network and per Solana and Tron network; SIGINT/SIGTERM
// lets each tick in progress finish (its deposits and cursor are committed together), then stops.
import { Client, Connection } from '@temporalio/client';
import { loadChainsConfig } from '../config/chains';
import { loadConfig, requireDatabaseUrl } from '../config/env';
import { temporalConnectionOptions } from '../config/temporalTls';
import { createSql } from '../db/client';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { createIndexerRegistry } from '../indexers/core/prometheus';
import { createTemporalSignalSender } from '../indexers/core/signalSender';
import { indexedEvmDeployments, startEvmIndexers } from '../indexers/evm/startEvmIndexers';
import { indexedSolanaDeployments, startSolanaIndexers } from '../indexers/solana/startSolanaIndexers';
import { indexedTronDeployments, startTronIndexers } from '../indexers/tron/startTronIndexers';
import { createLogger, errorFields } from '../observability/logger';
import { startMetricsServer } from '../observability/metricsServer';
import { onShutdown } from './shutdown';

const METRICS_LOG_MS = 60_000;

const config = loadConfig(process.env, 'indexer');
const logger = createLogger(config.logLevel, 'indexer');
try {
  const chains = loadChainsConfig(process.env);
  const registry = createChainRegistry(chains);
  const deployments = [...indexedEvmDeployments(registry), ...indexedSolanaDeployments(registry), ...indexedTronDeployments(registry)];
  if (deployments.length === 0)
    throw new Error('no chain to index: set RPC_URLS_<CHAIN>_<NETWORK> (and a token contract where none is published)');
  // Each indexer holds one connection for its advisory lock, besides the ones its queries use.
  const sql = createSql(requireDatabaseUrl(config), { max: deployments.length + 4 });
  const connection = await Connection.connect(temporalConnectionOptions(config.temporal));
  const client = new Client({ connection, namespace: config.temporal.namespace });
  const sender = createTemporalSignalSender(client, { namespace: config.temporal.namespace });
  const families = [startEvmIndexers, startSolanaIndexers, startTronIndexers];
  const running = await Promise.all(families.map((start) => start({ sql, registry, tuning: chains.indexer, sender, logger })));
  logger.info({ chains: deployments.map((d) => `${d.chain}:${d.network}`) }, 'indexers started');

  const metricsTimer = setInterval(() => {
    for (const m of running.flatMap((r) => r.metrics.snapshot())) {
      logger.info({ ...m, head: m.head?.toString(), cursor: m.cursor?.toString(), lag: m.lag?.toString() }, 'indexer metrics');
    }
  }, METRICS_LOG_MS);
  metricsTimer.unref();
  // Head lag, RPC calls and the rest per chain for Prometheus, read from the same snapshots.
  const metricsServer = config.metrics.indexerPort
    ? await startMetricsServer(
        createIndexerRegistry(() => running.flatMap((r) => r.metrics.snapshot())),
        config.metrics.host,
        config.metrics.indexerPort,
      )
    : undefined;
  if (metricsServer) logger.info({ url: metricsServer.url }, 'indexer metrics served');

  const stop = async () => {
    clearInterval(metricsTimer);
    await metricsServer?.close();
    await Promise.all(running.map((r) => r.stop()));
    await connection.close();
    await sql.end({ timeout: 5 });
    logger.info('indexers stopped');
  };
  onShutdown(logger, stop);
  Promise.all(running.map((r) => r.done)).catch(async (error: unknown) => {
    logger.fatal({ err: errorFields(error) }, 'indexer failed');
    await stop().catch(() => undefined);
    process.exit(1);
  });
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'indexer failed to start');
  process.exit(1);
}
