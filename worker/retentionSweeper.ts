// The retention sweep: every RETENTION_INTERVAL_MINUTES the worker process deletes rows whose use has
// passed (db/repositories/retention.ts). Several worker replicas may sweep at once: deleting what another
// replica already deleted is a no-op.
import type { Logger } from 'pino';
import type { Config } from '../config/env';
import type { Sql } from '../db/client';
import { purgeRetained, type RetentionCounts } from '../db/repositories/retention';
import { errorFields } from '../observability/logger';

export interface RetentionSweeper {
  stop(): Promise<void>;
}

export function startRetentionSweeper(sql: Sql, retention: Config['retention'], logger: Logger): RetentionSweeper | undefined {
  if (retention.intervalMinutes === 0) return undefined;
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    try {
      const counts: RetentionCounts = await purgeRetained(sql, retention.ages);
      if (Object.values(counts).some((n) => n > 0)) logger.info({ deleted: counts }, 'retention sweep deleted expired rows');
    } catch (error) {
      logger.error({ err: errorFields(error) }, 'retention sweep failed; the next one retries');
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, retention.intervalMinutes * 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
