// `npm run migrate`: applies pending migrations to DATABASE_URL.
import { loadConfig, requireDatabaseUrl } from '../config/env';
import { createSql } from '../db/client';
import { migrate } from '../db/migrate';

const sql = createSql(requireDatabaseUrl(loadConfig(process.env, 'migrate')), { max: 1 });
try {
  const applied = await migrate(sql, (line) => console.log(line));
  console.log(applied.length > 0 ? `applied ${applied.length} migration(s)` : 'database is up to date');
} finally {
  await sql.end({ timeout: 5 });
}
