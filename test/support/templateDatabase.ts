// The schema every test file starts from, migrated once per run. A file's database is a copy of it (`create
// database … template`), which takes a few milliseconds where running every migration takes a few hundred.
import { createSql } from '../../db/client';
import { migrate } from '../../db/migrate';
import { SERVICE_ROLES } from '../../db/serviceRoles';

export const TEMPLATE_DATABASE = 'test_template';
export const ROLE_PASSWORD = 'service-role-test-password';

/**
 * Makes the roles, then the migrated template database, granted to them as migrate grants. Every connection to
 * it is closed before this returns: Postgres copies only a template nobody is connected to.
 */
export async function createTemplateDatabase(adminUrl: string): Promise<void> {
  const admin = createSql(adminUrl, { max: 1 });
  try {
    // The roles exist once per server, as an operator makes them; the run's server is new.
    for (const role of SERVICE_ROLES) await admin.unsafe(`create role ${role} login password '${ROLE_PASSWORD}'`);
    await admin.unsafe(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const sql = createSql(adminUrl.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`), { max: 1 });
  try {
    await migrate(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
