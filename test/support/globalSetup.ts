import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../db/embeddedPostgres';
import { freePort } from '../../toolchain/ports';
import { startTemporalDevServer } from '../../toolchain/temporalDevServer';
import { workflowsPath } from '../../worker/createWorker';
import { createTemplateDatabase } from './templateDatabase';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    temporalAddress: string;
    workflowBundleCode: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-test-pg-'));
  const results = await Promise.allSettled([
    freePort().then(async (port) => {
      const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'data'), port, persistent: false, fast: true });
      await createTemplateDatabase(pg.adminUrl).catch(async (error: unknown) => {
        await pg.stop();
        throw error;
      });
      return pg;
    }),
    startTemporalDevServer(),
    bundleWorkflowCode({ workflowsPath, logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } }),
  ]);
  const [pg, temporal, bundle] = results;
  if (pg.status === 'rejected' || temporal.status === 'rejected' || bundle.status === 'rejected') {
    // Stop what did start, or the run hangs on a live server after reporting the failure.
    await Promise.allSettled([pg.status === 'fulfilled' && pg.value.stop(), temporal.status === 'fulfilled' && temporal.value.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
    throw results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
  }
  console.log(
    `[test setup] Postgres with the migrated template database, Temporal dev server and workflow bundle ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  project.provide('postgresAdminUrl', pg.value.adminUrl);
  project.provide('temporalAddress', temporal.value.address);
  project.provide('workflowBundleCode', bundle.value.code);
  return async () => {
    await Promise.allSettled([temporal.value.stop(), pg.value.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
