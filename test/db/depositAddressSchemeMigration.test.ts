// Migration 0042 records each session's EVM and Tron deposit-address scheme: every address from before it is an HD
// one, and a forwarder address always names its factory (an HD one never does).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { projectRoot } from '../../toolchain/paths';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

const MIGRATIONS = join(projectRoot, 'db', 'migrations');
const SCHEMES = '0042_deposit_address_schemes.sql';
const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const name = `test_${randomBytes(6).toString('hex')}`;
let admin: Sql;
let sql: Sql;
let merchantId: string;
let nextIndex = 0;

async function newSessionId(): Promise<string> {
  const record = { ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }), mode: 'test' as const };
  await insertSessionRecord(sql, record, 'pending');
  return record.sessionId;
}

const insertAddress = async (sessionId: string, columns: Record<string, string> = {}) =>
  sql`insert into deposit_addresses ${sql({ session_id: sessionId, mode: 'test', derivation_index: nextIndex++, evm_address: '0xevm', tron_address: 'Ttron', ...columns })}`;

beforeAll(async () => {
  admin = createSql(inject('postgresAdminUrl'), { max: 1 });
  await admin.unsafe(`create database ${name}`);
  sql = createSql(inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`), { max: 2 });
  for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < SCHEMES).sort()) await sql.unsafe(readFileSync(join(MIGRATIONS, file), 'utf8'));
  merchantId = (await createTestMerchant(sql)).merchant.id;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await admin?.unsafe(`drop database if exists ${name} with (force)`);
  await admin?.end({ timeout: 5 });
});

describe('migration 0042', () => {
  it('makes every existing address HD, and keeps a forwarder address tied to its factory', async () => {
    const before = await newSessionId();
    await insertAddress(before);
    await sql.unsafe(readFileSync(join(MIGRATIONS, SCHEMES), 'utf8'));
    expect(await sql`select evm_scheme, tron_scheme, evm_factory, tron_factory from deposit_addresses where session_id = ${before}`).toEqual([
      { evm_scheme: 'hd', tron_scheme: 'hd', evm_factory: null, tron_factory: null },
    ]);

    await insertAddress(await newSessionId(), { evm_scheme: 'forwarder', evm_factory: FACTORY });
    await expect(insertAddress(await newSessionId(), { evm_scheme: 'forwarder' })).rejects.toThrow(/deposit_addresses_evm_factory/);
    await expect(insertAddress(await newSessionId(), { tron_factory: 'TJhSSbZ8dVqtEiLYgva1WWcV4R4NkRCARH' })).rejects.toThrow(/deposit_addresses_tron_factory/);
    await expect(insertAddress(await newSessionId(), { tron_scheme: 'create2' })).rejects.toThrow(/deposit_addresses_tron_scheme/);
  });
});
