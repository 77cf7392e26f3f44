import { createSql } from './client';

/** Creates `name` on the server behind `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  const admin = createSql(adminUrl, { max: 1 });
  try {
    const [row] = await admin`select 1 as present from pg_database where datname = ${name}`;
    if (!row) await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}
