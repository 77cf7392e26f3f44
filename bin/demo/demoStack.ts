// The stack `npm run demo` pays on, and the bench times the inventory routes on (bench/inventoryRoutes.ts): the one
// `npm start` runs (bin/devStack.ts), on free ports with a throw-away data directory, its own Temporal dev server and
// its local chains, so it neither collides with nor leaves anything in a running `npm start`.
import { loadConfig } from '../../config/env';
import { createLogger } from '../../observability/logger';
import { freePort } from '../../toolchain/ports';
import { startDevStack, type DevStack } from '../devStack';

export async function startDemoStack(options: {
  dataDir: string;
  logLevel: string;
  /** Label of the stack's fresh test key. */
  keyLabel: string;
  progress(line: string): void;
}): Promise<DevStack> {
  const [apiPort, postgresPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
  // Only what makes this stack its own is set; everything else is the embedded default.
  const config = loadConfig(
    {
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      DATA_DIR: options.dataDir,
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      LOCAL_CHAIN_PORT: '0',
      LOCAL_SOLANA_PORT: '0',
      WORKER_METRICS_PORT: '0',
      INDEXER_METRICS_PORT: '0',
      LOG_LEVEL: options.logLevel,
      // A demo payment is below the default minimum a transfer waits for.
      TRANSFER_MINIMUM_USDC: '1',
    },
    'dev',
  );
  return startDevStack({
    config,
    chainEnv: {},
    startTemporal: true,
    persistent: false,
    keyLabel: options.keyLabel,
    progress: options.progress,
    logger: createLogger(config.logLevel, 'demo', config.logFormat),
  });
}
