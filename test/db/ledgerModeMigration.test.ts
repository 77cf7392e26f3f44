// Migration 0038 gives every ledger entry its mode: entries posted before it (payout groups) take their payout's,
// through the append-only trigger, which stays on for everything after.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertChainIntent } from '../../db/repositories/chainIntents';
import { insertPayout } from '../../db/repositories/payouts';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { payoutIntentId } from '../../domain/chainWrites/solanaChainIntent';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import { projectRoot } from '../../toolchain/paths';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

const MIGRATIONS = join(projectRoot, 'db', 'migrations');
const LEDGER_MODE = '0038_ledger_reconciliation.sql';
const name = `test_${randomBytes(6).toString('hex')}`;
let admin: Sql;
let sql: Sql;

/** A payout posted before migration 0038, as the payout code wrote it then: ledger entries without a mode. */
async function legacyPayout(mode: Mode): Promise<string> {
  const { merchant } = await createTestMerchant(sql);
  const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), mode };
  await insertSessionRecord(sql, record, 'confirming');
  const paymentId = paymentIdForSession(record.sessionId);
  await sql`insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
            values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', 'deposit', 5, 5, 6)`;
  const intentId = payoutIntentId(paymentId);
  await insertChainIntent(sql, intentId);
  await insertPayout(sql, { paymentId, merchantId: merchant.id, mode, amount: 5n, mint: 'Mint1111', treasury: 'Treasury1111', merchantWallet: 'Wallet1111', intentId });
  await sql`insert into ledger_entries (group_id, account, asset, amount, reference)
            values (${`${intentId}:reserve`}, ${`merchant_payable:${merchant.id}`}, 'usdc:solana', 5, ${intentId}),
                   (${`${intentId}:reserve`}, 'payouts_in_flight', 'usdc:solana', -5, ${intentId})`;
  return intentId;
}

beforeAll(async () => {
  admin = createSql(inject('postgresAdminUrl'), { max: 1 });
  await admin.unsafe(`create database ${name}`);
  sql = createSql(inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`), { max: 2 });
  for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < LEDGER_MODE).sort()) await sql.unsafe(readFileSync(join(MIGRATIONS, file), 'utf8'));
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await admin?.unsafe(`drop database if exists ${name} with (force)`);
  await admin?.end({ timeout: 5 });
});

describe('migration 0038', () => {
  it("gives the entries posted before it their payout's mode and keeps the ledger append-only", async () => {
    const [test, live] = [await legacyPayout('test'), await legacyPayout('live')];
    await sql.unsafe(readFileSync(join(MIGRATIONS, LEDGER_MODE), 'utf8'));
    expect(await sql`select reference, mode, count(*)::int as n from ledger_entries group by reference, mode order by mode`).toEqual([
      { reference: live, mode: 'live', n: 2 },
      { reference: test, mode: 'test', n: 2 },
    ]);
    await expect(sql`update ledger_entries set amount = amount * 2`).rejects.toThrow(/append-only/);
    await expect(sql`insert into ledger_entries (group_id, account, asset, amount, reference) values ('g', 'a', 'usdc:solana', 1, 'r')`).rejects.toThrow(/mode/);
  });
});
