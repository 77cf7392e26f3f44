// Each process logs in as a least-privilege role. Above all, the deposit facts belong to
// the indexer: the worker (every workflow activity) can record only its verdict on a deposit, and the API
// cannot touch deposits or payments at all. The rest of the suite runs the API, the worker and the EVM
// indexer as these roles, so a missing grant fails the tests of the code that needs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { upsertDeposits } from '../../indexers/core/depositStore';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;
let worker: Sql;
let api: Sql;
let indexer: Sql;
let sessionId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
  api = createSql(db.urlAs('checkout_api'), { max: 1 });
  indexer = createSql(db.urlAs('checkout_indexer'), { max: 1 });
  const { merchant } = await createTestMerchant(db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  sessionId = record.sessionId;
  await insertSessionRecord(db.sql, record, 'awaiting_payment');
});
afterAll(async () => {
  await Promise.all([worker, api, indexer].map((sql) => sql?.end({ timeout: 5 })));
  await db?.drop();
});

const denied = (query: Promise<unknown>) => expect(query).rejects.toMatchObject({ code: '42501' });

describe('service roles', () => {
  it('lets only the indexer write deposit facts; the worker records its verdict, nothing else', async () => {
    const fact = {
      sessionId,
      token: 'USDC' as const,
      txHash: '0xfact',
      logIndex: 0,
      amount: 5_000_000n,
      fromAddress: '0x1',
      toAddress: '0x2',
      blockNumber: 9n,
      blockHash: '0xb9',
    };
    const key = { chain: 'base' as const, network: 'testnet' as const };
    await denied(upsertDeposits(worker, key, [{ ...fact, txHash: '0xforged' }]));
    await denied(upsertDeposits(api, key, [{ ...fact, txHash: '0xforged' }]));
    await upsertDeposits(indexer, key, [fact]);

    await denied(worker`update deposits set amount_base_units = 999000000 where tx_hash = '0xfact'`);
    await denied(worker`update deposits set stage = 'confirmed', confirmations = 64 where tx_hash = '0xfact'`);
    await worker`update deposits set credited = true, updated_at = now() where tx_hash = '0xfact'`;
    await denied(api`update deposits set credited = false where tx_hash = '0xfact'`);
    expect(await db.sql`select amount_base_units::text as amount, stage, credited from deposits where tx_hash = '0xfact'`).toEqual([
      { amount: '5000000', stage: 'detected', credited: true },
    ]);
  });

  it('keeps each process to the tables it writes', async () => {
    await denied(api`update payments set received_base_units = 1`);
    await denied(
      api`insert into webhook_deliveries (id, session_id, event, status_version, url, body) values ('wh_x', ${sessionId}, 'payment.completed', 9, 'https://x.example', '{}')`,
    );
    await denied(api`delete from sessions`);
    await denied(indexer`update sessions set status = 'completed'`);
    await denied(indexer`update merchants set name = 'taken'`);
    await denied(worker`update api_keys set revoked_at = now()`);
    await denied(worker`update merchants set settlement_wallet = 'attacker'`);
    await denied(worker`create table stolen (x int)`);
    // The operators' trail is the admin CLI's (the owner's) alone: no service can forge or erase a row.
    for (const role of [api, worker, indexer]) {
      await denied(role`insert into admin_audit_events (operator, operator_source, action) values ('forged', 'option', 'key.revoke')`);
      await denied(role`update admin_audit_events set outcome = 'ok'`);
      await denied(role`delete from admin_audit_events`);
    }
    // Money movement: payouts, their chain intents and the ledger are never the API's to write.
    await denied(api`insert into chain_intents (id, chain) values ('payout:pay_forged', 'solana')`);
    await denied(api`update chain_intents set status = 'confirmed'`);
    await denied(api`update payouts set merchant_wallet = 'attacker'`);
    await denied(
      api`insert into ledger_entries (group_id, mode, account, asset, amount, reference) values ('g', 'test', 'a', 'usdc:solana', 1, 'r')`,
    );
    await denied(indexer`update payouts set status = 'confirmed'`);
    await worker`update chain_intents set updated_at = now() where false`;
    // What they do need still works.
    await api`update sessions set updated_at = now() where id = ${sessionId}`;
    await indexer`select count(*) from deposit_watches`;
  });
});
