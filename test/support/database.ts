import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { migrate } from '../../db/migrate';
import { SERVICE_ROLES, type ServiceRole } from '../../db/serviceRoles';

export interface TestDatabase {
  /** As the schema owner, as migrations run: for setting up and inspecting. */
  sql: Sql;
  url: string;
  /** The same database as one of the service's least-privilege roles (db/serviceRoles.ts). */
  urlAs(role: ServiceRole): string;
  drop(): Promise<void>;
}

const ROLE_PASSWORD = 'service-role-test-password';
const DUPLICATE_OBJECT = '42710';
const UNIQUE_VIOLATION = '23505';

/** The service roles exist once per server, as an operator makes them; test files race to make them. */
async function ensureServiceRoles(admin: Sql): Promise<void> {
  for (const role of SERVICE_ROLES) {
    try {
      await admin.unsafe(`create role ${role} login password '${ROLE_PASSWORD}'`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== DUPLICATE_OBJECT && code !== UNIQUE_VIOLATION) throw error;
    }
  }
}

/** A fresh, migrated database on the run's Postgres server, for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = createSql(adminUrl, { max: 1 });
  await ensureServiceRoles(admin);
  await admin.unsafe(`create database ${name}`);
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const sql = createSql(url, { max: 5 });
  await migrate(sql);
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
