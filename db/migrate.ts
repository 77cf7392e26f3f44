// Applies db/migrations/*.sql in name order inside one transaction, recording each in schema_migrations.
// Safe to re-run and to run from several processes at once (advisory lock); an edited applied file is refused.
// Then it grants the service roles that exist their rights (db/serviceRoles.ts), every run.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './client';
import { grantServiceRoles } from './serviceRoles';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 7_316_001;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function migrate(sql: Sql, log: (line: string) => void = () => undefined): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return sql.begin(async (tx) => {
    // A migration may rewrite a large table: the pool's statement limit does not apply to it.
    await tx`set local statement_timeout = 0`;
    await tx`select pg_advisory_xact_lock(${LOCK_KEY})`;
    await tx`create table if not exists schema_migrations (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`;
    const applied = new Map(
      (await tx<{ name: string; checksum: string }[]>`select name, checksum from schema_migrations`).map((r) => [r.name, r.checksum]),
    );
    // Files run in name order, so a database that holds migrations but not the first file was built by files that
    // are gone (the ones squashed into the baseline): applying the baseline over them would fail half-way.
    const [first] = files;
    if (first && applied.size > 0 && !applied.has(first)) {
      throw new MigrationError(
        `the database was migrated before ${first} (it records ${[...applied.keys()].sort().join(', ')}); recreate it: with the embedded Postgres, delete DATA_DIR`,
      );
    }
    const ran: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
      const checksum = createHash('sha256').update(text).digest('hex');
      const previous = applied.get(file);
      if (previous === checksum) continue;
      if (previous) throw new MigrationError(`migration ${file} changed after it was applied; add a new migration instead`);
      log(`applying migration ${file}`);
      await tx.unsafe(text);
      await tx`insert into schema_migrations (name, checksum) values (${file}, ${checksum})`;
      ran.push(file);
    }
    await grantServiceRoles(tx);
    return ran;
  });
}
