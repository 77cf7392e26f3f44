import type { Logger } from '../observability/logger';
import { errorFields } from '../observability/logger';

/**
 * Runs `stop` once on the first SIGINT/SIGTERM, then exits; a second signal exits at once. The handlers stay
 * installed: without one, the second signal would kill the process outright, skipping the 'exit' listeners
 * that stop child processes (Temporal dev server, Hardhat node), which would then outlive it.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: errorFields(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
