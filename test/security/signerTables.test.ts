// Every table the signer signs from, written as the webhook worker (it connects to merchant-chosen URLs) and as the
// session worker (every workflow activity): each INSERT, each column's UPDATE and each DELETE is tried, and Postgres
// must refuse all but the few writes the worker's own code makes. The expectations are written out here, not read from
// db/serviceRoles.ts, so a grant added there for one of these tables fails this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { createTestDatabase, type TestDatabase } from '../support/database';

/** What the signer signs from, or reads to decide what to sign: (table, the columns whose update matters; all when omitted). */
const SIGNER_INPUTS: ReadonlyArray<{ table: string; columns?: readonly string[] }> = [
  { table: 'payouts' },
  { table: 'chain_intents' },
  { table: 'evm_nonces' },
  { table: 'solana_nonce_accounts' },
  { table: 'collector_sweeps' },
  { table: 'collector_sweep_addresses' },
  { table: 'solana_sweeps' },
  { table: 'solana_sweep_accounts' },
  { table: 'sweep_address_failures' },
  { table: 'transfers' },
  { table: 'solana_deposit_address_pool' },
  { table: 'deposit_addresses' },
  { table: 'deposit_watches' },
  // The settlement wallet a payout is signed to; the API (merchant dashboard) alone writes merchants.
  { table: 'merchants', columns: ['settlement_wallet'] },
];

/**
 * The session worker's own writes among them (activities/payments/choosePayment.ts): a session's deposit address row,
 * its Solana address once, and the watches of its addresses. Everything else is the signer's.
 */
const WORKER_ALLOWED = new Set([
  'insert deposit_addresses',
  'update deposit_addresses.solana_address',
  'insert deposit_watches',
  ...['session_id', 'chain', 'network', 'address', 'watch_until', 'created_at', 'indexed_from', 'backfilled_at'].map(
    (column) => `update deposit_watches.${column}`,
  ),
]);

let db: TestDatabase;
let worker: Sql;
let webhooks: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
  webhooks = createSql(db.urlAs('checkout_webhooks'), { max: 1 });
});
afterAll(async () => {
  await Promise.all([worker?.end({ timeout: 5 }), webhooks?.end({ timeout: 5 })]);
  await db?.drop();
});

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Each write as a statement that needs that one privilege and changes nothing even when allowed: an INSERT of no
 * values (a privileged one fails on a NOT NULL column instead), an UPDATE of one column and a DELETE of no row.
 */
async function writes(): Promise<Array<{ write: string; statement: string }>> {
  const probes: Array<{ write: string; statement: string }> = [];
  for (const { table, columns } of SIGNER_INPUTS) {
    const all = (
      await db.sql<{ column: string }[]>`
        select column_name as column from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`
    ).map((c) => c.column);
    expect(all.length, `table ${table}`).toBeGreaterThan(0);
    probes.push({ write: `insert ${table}`, statement: `insert into ${quote(table)} default values` });
    for (const column of columns ?? all)
      probes.push({ write: `update ${table}.${column}`, statement: `update ${quote(table)} set ${quote(column)} = null where false` });
    probes.push({ write: `delete ${table}`, statement: `delete from ${quote(table)} where false` });
  }
  return probes;
}

/** The writes Postgres lets `sql` make: anything but permission denied (42501) means the privilege is there. */
async function allowedWrites(sql: Sql): Promise<string[]> {
  const allowed: string[] = [];
  for (const { write, statement } of await writes()) {
    const error = await sql.unsafe(statement).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    if (error?.code !== '42501') allowed.push(write);
  }
  return allowed.sort();
}

describe("writing what the signer signs from, as another process's role", () => {
  it('refuses the webhook worker every INSERT, UPDATE and DELETE', async () => {
    expect(await allowedWrites(webhooks)).toEqual([]);
  });

  it("allows the session worker only a session's deposit address row, its Solana address and its watches", async () => {
    expect(await allowedWrites(worker)).toEqual([...WORKER_ALLOWED].sort());
  });
});
