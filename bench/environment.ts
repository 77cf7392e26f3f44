// What every benchmark runs against, set up the way the tests set theirs up: one embedded Postgres (a
// throw-away cluster) and one Temporal dev server from the provisioned CLI, both on loopback.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSql, type Sql } from '../db/client';
import { startEmbeddedPostgres } from '../db/embeddedPostgres';
import { migrate } from '../db/migrate';
import { freePort } from '../toolchain/ports';
import { startTemporalDevServer } from '../toolchain/temporalDevServer';

export interface BenchDatabase {
  sql: Sql;
  url: string;
}

export interface BenchEnvironment {
  temporalAddress: string;
  /** A fresh migrated database; closed and dropped by stop(). */
  database(max?: number): Promise<BenchDatabase>;
  stop(): Promise<void>;
}

export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-bench-pg-'));
  const [pg, temporal] = await Promise.all([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: join(dataDir, 'data'), port, persistent: false, fast: true })),
    startTemporalDevServer(),
  ]);
  const admin = createSql(pg.adminUrl, { max: 1 });
  const opened: Sql[] = [];
  return {
    temporalAddress: temporal.address,
    async database(max = 20) {
      const name = `bench_${randomBytes(5).toString('hex')}`;
      await admin.unsafe(`create database ${name}`);
      const url = pg.urlFor(name);
      const sql = createSql(url, { max });
      opened.push(sql);
      await migrate(sql);
      return { sql, url };
    },
    async stop() {
      await Promise.allSettled(opened.map((sql) => sql.end({ timeout: 5 })));
      await admin.end({ timeout: 5 });
      await Promise.allSettled([temporal.stop(), pg.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
