// Under root the embedded server runs as `postgres`, which must pass through every directory above its binaries and
// data: a clone under `mktemp -d` (0700) made initdb fail with EACCES.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../db/embeddedPostgres';
import { directoriesBlockingOthers, makeTraversableByOthers } from '../../db/traversableByOthers';
import { freePort } from '../../toolchain/ports';

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** outer (0700, as mktemp makes it) / middle (0750) / inner (0755) */
function privateTree(): { outer: string; middle: string; inner: string } {
  const outer = mkdtempSync(join(tmpdir(), 'checkout-traverse-'));
  made.push(outer);
  const middle = join(outer, 'middle');
  const inner = join(middle, 'inner');
  mkdirSync(inner, { recursive: true });
  chmodSync(outer, 0o700);
  chmodSync(middle, 0o750);
  chmodSync(inner, 0o755);
  return { outer, middle, inner };
}

const permissions = (path: string) => statSync(path).mode & 0o777;

describe('directories the postgres user must pass through', () => {
  it('names every directory above a path that others cannot search, and only those', () => {
    const { outer, middle, inner } = privateTree();
    const blocking = directoriesBlockingOthers(inner);
    expect(blocking).toContain(outer);
    expect(blocking).toContain(middle);
    expect(blocking).not.toContain(inner);
  });

  it('grants others the search bit alone: they can pass through, not list or read', () => {
    const { outer, middle, inner } = privateTree();
    expect(makeTraversableByOthers(inner)).toEqual(expect.arrayContaining([outer, middle]));
    expect(permissions(outer)).toBe(0o701);
    expect(permissions(middle)).toBe(0o751);
    expect(permissions(inner)).toBe(0o755);
    expect(directoriesBlockingOthers(inner)).toEqual([]);
    expect(makeTraversableByOthers(inner)).toEqual([]);
  });

  it('starts the embedded server with its data below a private (0700) directory', async () => {
    const { inner } = privateTree();
    const pg = await startEmbeddedPostgres({ dataDir: join(inner, 'data'), port: await freePort(), persistent: false, fast: true });
    await pg.stop();
    expect(directoriesBlockingOthers(inner)).toEqual([]);
  }, 120_000);
});
