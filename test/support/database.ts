import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import type { ServiceRole } from '../../db/serviceRoles';
import { ROLE_PASSWORD, TEMPLATE_DATABASE } from './templateDatabase';

export interface TestDatabase {
  /** As the schema owner, as migrations run: for setting up and inspecting. */
  sql: Sql;
  url: string;
  /** The same database as one of the service's least-privilege roles (db/serviceRoles.ts). */
  urlAs(role: ServiceRole): string;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the run's Postgres server, for one test file: a copy of the run's template (test/support/templateDatabase.ts). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = createSql(adminUrl, { max: 1 });
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DATABASE}`);
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const sql = createSql(url, { max: 5 });
  return {
    sql,
    url,
    urlAs(role) {
      const roleUrl = new URL(url);
      roleUrl.username = role;
      roleUrl.password = ROLE_PASSWORD;
      return roleUrl.href;
    },
    async drop() {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
