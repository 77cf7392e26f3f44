// The ledger's guarantees live in the database (db/migrations/0001_baseline.sql), not only in domain/ledger/ledger.ts: a group of entries
// that does not sum to zero per asset cannot commit, however it is written, and entries are never changed or
// removed, even by the role that posts them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { postLedger, unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let worker: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
});
afterAll(async () => {
  await worker?.end({ timeout: 5 });
  await db?.drop();
});

const entry = (group: string, account: string, asset: string, amount: number) => ({
  group_id: group,
  mode: 'test',
  account,
  asset,
  amount: amount.toString(),
  reference: 'payout:pay_test',
});

describe('ledger entries', () => {
  it('commit only in groups that balance per asset', async () => {
    await expect(worker`insert into ledger_entries ${worker([entry('g1', 'a', 'usdc:solana', 5)])}`).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      worker`insert into ledger_entries ${worker([entry('g2', 'a', 'usdc:solana', 5), entry('g2', 'b', 'sol:solana', -5)])}`,
    ).rejects.toMatchObject({ code: '23514' });
    // Written by several statements of one transaction, a group is judged as a whole when it commits.
    await worker.begin(async (tx) => {
      await tx`insert into ledger_entries ${tx([entry('g3', 'a', 'usdc:solana', 5)])}`;
      await tx`insert into ledger_entries ${tx([entry('g3', 'b', 'usdc:solana', -5)])}`;
    });
    await expect(worker`insert into ledger_entries ${worker([entry('g3', 'c', 'usdc:solana', 1)])}`).rejects.toMatchObject({
      code: '23514',
    });
    expect(await db.sql`select group_id, count(*)::int as n from ledger_entries group by group_id`).toEqual([{ group_id: 'g3', n: 2 }]);
    expect(await unbalancedLedgerGroups(db.sql)).toEqual([]);
  });

  it('posting the same group twice writes it once', async () => {
    const posting = {
      groupId: 'g4',
      mode: 'test' as const,
      reference: 'payout:pay_test',
      entries: [
        { account: 'x', asset: 'usdc:solana' as const, amount: 7n },
        { account: 'y', asset: 'usdc:solana' as const, amount: -7n },
      ],
    };
    await postLedger(worker, posting);
    await postLedger(worker, posting);
    expect(await db.sql`select count(*)::int as n from ledger_entries where group_id = 'g4'`).toEqual([{ n: 2 }]);
  });

  it('are never changed or removed, by the worker or by the owner', async () => {
    await expect(worker`update ledger_entries set amount = 6 where group_id = 'g3'`).rejects.toMatchObject({ code: '42501' });
    await expect(worker`delete from ledger_entries`).rejects.toMatchObject({ code: '42501' });
    await expect(db.sql`update ledger_entries set amount = amount * 2`).rejects.toThrow(/append-only/);
    await expect(db.sql`delete from ledger_entries where group_id = 'g3'`).rejects.toThrow(/append-only/);
    await expect(db.sql`truncate ledger_entries`).rejects.toThrow(/append-only/);
  });
});
