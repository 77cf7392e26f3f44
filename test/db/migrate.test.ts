import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, MigrationError } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

describe('migration runner', () => {
  it('records every applied file and applies nothing on a re-run', async () => {
    const recorded = await db.sql<{ name: string }[]>`select name from schema_migrations order by name`;
    expect(recorded.map((r) => r.name)).toContain('0001_baseline.sql');
    expect(await migrate(db.sql)).toEqual([]);
    expect(await migrate(db.sql)).toEqual([]);
  });

  it('is safe when several processes migrate at once', async () => {
    const results = await Promise.all([migrate(db.sql), migrate(db.sql), migrate(db.sql)]);
    expect(results).toEqual([[], [], []]);
  });

  it('refuses a database built by migrations from before the baseline', async () => {
    const recorded = await db.sql<{ name: string; checksum: string }[]>`select name, checksum from schema_migrations`;
    await db.sql.begin(async (tx) => {
      await tx`delete from schema_migrations`;
      await tx`insert into schema_migrations (name, checksum) values ('0001_initial.sql', 'a'), ('0002_session_lifecycle.sql', 'b')`;
    });
    await expect(migrate(db.sql)).rejects.toThrow(
      'the database was migrated before 0001_baseline.sql (it records 0001_initial.sql, 0002_session_lifecycle.sql); recreate it',
    );
    await db.sql.begin(async (tx) => {
      await tx`delete from schema_migrations`;
      await tx`insert into schema_migrations ${tx(recorded, 'name', 'checksum')}`;
    });
    expect(await migrate(db.sql)).toEqual([]);
  });

  it('refuses to continue when an applied migration was edited', async () => {
    await db.sql`update schema_migrations set checksum = 'edited' where name = '0001_baseline.sql'`;
    await expect(migrate(db.sql)).rejects.toBeInstanceOf(MigrationError);
    await expect(migrate(db.sql)).rejects.toThrow('migration 0001_baseline.sql changed after it was applied; add a new migration instead');
  });
});
