// Released migrations never change (docs/operations.md#migrations): a database that applied one keeps its schema,
// and migrate refuses an applied file whose checksum moved. db/migrations/manifest.json holds the sha256 of each
// released file, as schema_migrations records it, so an edit is caught here before it reaches a database.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { projectRoot } from '../../toolchain/paths';

const MIGRATIONS = join(projectRoot, 'db', 'migrations');
const ADVICE = 'released migrations never change: restore it and add a new migration with the next number instead';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** What is wrong with `dir` against its manifest: each released file present and unchanged, each new one after them. */
function manifestProblems(dir: string): string[] {
  const manifest = z
    .record(z.string(), z.string().regex(/^[0-9a-f]{64}$/))
    .parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  const files = new Set(readdirSync(dir).filter((f) => f.endsWith('.sql')));
  const released = Object.keys(manifest).sort();
  const problems: string[] = [];
  for (const name of released) {
    if (!files.has(name)) problems.push(`${name} is released but gone: ${ADVICE}`);
    else if (sha256(join(dir, name)) !== manifest[name]) problems.push(`${name} changed after its release: ${ADVICE}`);
  }
  const last = released.at(-1) ?? '';
  for (const name of [...files].sort()) {
    if (!(name in manifest) && name < last)
      problems.push(`${name} sorts before the released ${last}: a new migration takes the next number`);
  }
  return problems;
}

const scratch = mkdtempSync(join(tmpdir(), 'migration-manifest-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A migrations folder with these files, released as `manifest` says. */
function folder(name: string, files: Record<string, string>, manifest: Record<string, string>): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

describe('migration manifest', () => {
  it('matches every released migration in db/migrations', () => {
    expect(manifestProblems(MIGRATIONS)).toEqual([]);
  });

  it('fails on a released migration edited, removed or overtaken by a new one numbered before it', () => {
    const released = { '0001_baseline.sql': 'create table a (id int);\n', '0003_b.sql': 'create table b (id int);\n' };
    const sums = Object.fromEntries(Object.entries(released).map(([f, t]) => [f, createHash('sha256').update(t).digest('hex')]));
    expect(manifestProblems(folder('unchanged', { ...released, '0004_c.sql': 'select 1;\n' }, sums))).toEqual([]);
    expect(manifestProblems(folder('edited', { ...released, '0003_b.sql': 'create table b (id bigint);\n' }, sums))).toEqual([
      `0003_b.sql changed after its release: ${ADVICE}`,
    ]);
    expect(manifestProblems(folder('removed', { '0001_baseline.sql': released['0001_baseline.sql'] }, sums))).toEqual([
      `0003_b.sql is released but gone: ${ADVICE}`,
    ]);
    expect(manifestProblems(folder('overtaken', { ...released, '0002_late.sql': 'select 1;\n' }, sums))).toEqual([
      '0002_late.sql sorts before the released 0003_b.sql: a new migration takes the next number',
    ]);
  });
});
