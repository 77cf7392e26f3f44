// Each process logs in as a least-privilege role. Above all, the deposit facts belong to
// the indexer: the worker (every workflow activity) can record only its verdict on a deposit, and the API
// cannot touch deposits or payments at all; what the signer signs from is the signer's alone to write, and the
// webhook worker, which reaches merchant-chosen URLs, writes nothing but its attempts. The rest of the suite runs
// the API, the worker, the signer, the webhook worker and the EVM indexer as these roles, so a missing grant fails
// the tests of the code that needs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import {
  findWebhookDeliveryToSend,
  insertWebhookAttempt,
  insertWebhookDelivery,
  setWebhookDeliveryFailed,
} from '../../db/repositories/webhookDeliveries';
import { grantServiceRoles, requireRoleRights, SERVICE_ROLES } from '../../db/serviceRoles';
import { upsertDeposits } from '../../indexers/core/depositStore';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

let db: TestDatabase;
let worker: Sql;
let api: Sql;
let indexer: Sql;
let signer: Sql;
let webhooks: Sql;
let sessionId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 1 });
  api = createSql(db.urlAs('checkout_api'), { max: 1 });
  indexer = createSql(db.urlAs('checkout_indexer'), { max: 1 });
  signer = createSql(db.urlAs('checkout_signer'), { max: 1 });
  webhooks = createSql(db.urlAs('checkout_webhooks'), { max: 1 });
  const { merchant } = await createTestMerchant(db.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  sessionId = record.sessionId;
  await insertSessionRecord(db.sql, record, 'awaiting_payment');
});
afterAll(async () => {
  await Promise.all([worker, api, indexer, signer, webhooks].map((sql) => sql?.end({ timeout: 5 })));
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
    // A merchant's fee is the operator's to set: the API, which merchants drive, may change the merchant's own settings only.
    await denied(api`update merchants set fee_bps = 0 where false`);
    await denied(api`update merchants set fee_fixed_cents = 0 where false`);
    await api`update merchants set tolerance_bps = tolerance_bps, settlement_wallet = settlement_wallet where false`;
    // The worker names the merchant in a refund's reminder, and reads nothing else of it.
    await worker`select id, name from merchants`;
    await denied(worker`select webhook_secret_test from merchants`);
    await denied(worker`update refunds set claim_emailed_at = now()`);
    await api`update refunds set claim_emailed_at = now() where false`;
    await denied(worker`create table stolen (x int)`);
    // The operators' trail is the admin CLI's (the owner's) alone: no service can forge or erase a row.
    for (const role of [api, worker, indexer, signer, webhooks]) {
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
    // What they do need still works.
    await api`update sessions set updated_at = now() where id = ${sessionId}`;
    await indexer`select count(*) from deposit_watches`;
  });

  it('lets only the signer write what it signs from', async () => {
    // The webhook worker talks to merchant-chosen URLs; the session worker runs every workflow activity.
    for (const role of [webhooks, worker, api, indexer]) {
      await denied(role`insert into chain_intents (id, chain) values ('payout:pay_forged', 'solana')`);
      await denied(role`update chain_intents set status = 'prepared' where false`);
      await denied(
        role`insert into payouts (payment_id, merchant_id, mode, amount_base_units, mint, treasury, merchant_wallet, intent_id) values ('pay_forged', 'm', 'test', 1, 'mint', 'treasury', 'attacker', 'payout:pay_forged')`,
      );
      await denied(role`update payouts set merchant_wallet = 'attacker' where false`);
      await denied(role`insert into solana_deposit_address_pool (mode, derivation_index, address) values ('live', 0, 'attacker')`);
      await denied(role`update solana_deposit_address_pool set address = 'attacker' where false`);
      await denied(role`insert into evm_nonces (chain, mode, sender, next_nonce) values ('base', 'live', '0x1', 0)`);
      await denied(role`update transfers set stage = 'burned' where false`);
      await denied(role`insert into transfers (id) values ('forged')`);
      await denied(role`update collector_sweeps set mode = 'live' where false`);
      await denied(role`insert into collector_sweeps (id) values ('forged')`);
      await denied(role`update solana_sweeps set mode = 'live' where false`);
      await denied(role`insert into solana_sweeps (id) values ('sweep:solana:forged')`);
      await denied(role`update relayer_balances set address = 'attacker' where false`);
    }
    await signer`update chain_intents set updated_at = now() where false`;
    await signer`update payouts set status = status where false`;
    await signer`select count(*) from solana_deposit_address_pool`;
  });

  it('keeps the webhook worker to its deliveries: it records attempts and outcomes, and reads no keys or users', async () => {
    for (const write of [
      webhooks`insert into deposit_watches (session_id, chain, network, address, watch_until) values (${sessionId}, 'base', 'testnet', '0xattacker', now())`,
      webhooks`update deposit_watches set address = '0xattacker' where false`,
      webhooks`insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address) values (${sessionId}, 'test', 0, '0xattacker', 'T')`,
      webhooks`update deposit_addresses set evm_address = '0xattacker' where false`,
      webhooks`update deposits set credited = true where false`,
      webhooks`update sessions set status = 'completed' where false`,
      webhooks`update merchants set settlement_wallet = 'attacker' where false`,
      webhooks`insert into ledger_entries (group_id, mode, account, asset, amount, reference) values ('g', 'test', 'a', 'usdc:solana', 1, 'r')`,
      webhooks`insert into webhook_deliveries (id, session_id, event, status_version, url, body) values ('wh_forged', ${sessionId}, 'payment.completed', 9, 'https://x.example', '{}')`,
      webhooks`update webhook_deliveries set url = 'https://attacker.example' where false`,
    ])
      await denied(write);
    for (const read of [
      webhooks`select key_hash from api_keys`,
      webhooks`select id from merchant_users`,
      webhooks`select 1 from user_invites`,
      webhooks`select 1 from dashboard_sessions`,
      webhooks`select settlement_wallet from merchants`,
      webhooks`select metadata from sessions`,
      webhooks`select 1 from payouts`,
      webhooks`select 1 from deposit_addresses`,
    ])
      await denied(read);

    const id = await insertWebhookDelivery(worker, {
      id: 'wh_roles',
      sessionId,
      event: 'payment.completed',
      statusVersion: 1,
      url: 'https://merchant.example/webhooks',
      body: '{}',
    });
    expect((await findWebhookDeliveryToSend(webhooks, id))?.url).toBe('https://merchant.example/webhooks');
    await insertWebhookAttempt(webhooks, { deliveryId: id, startedAt: new Date(), statusCode: 500, latencyMs: 3, error: 'HTTP 500' });
    await setWebhookDeliveryFailed(webhooks, id);
    expect(
      await db.sql`select state, (select count(*)::int from webhook_attempts where delivery_id = ${id}) as attempts from webhook_deliveries where id = ${id}`,
    ).toEqual([{ state: 'failed', attempts: 1 }]);
  });

  it("lets only the API read users' password hashes and TOTP secrets, and keeps that after a role held more", async () => {
    await api`select password_hash, totp_secret from merchant_users`;
    for (const role of [worker, indexer, signer, webhooks]) {
      await denied(role`select password_hash from merchant_users`);
      await denied(role`select totp_secret from merchant_users`);
      await denied(role`select key_hash from api_keys`);
    }
    // Migrate grants each role its rights from none: a grant made by hand, or left by an older list, goes.
    await db.sql`grant select (password_hash) on merchant_users to checkout_worker`;
    await grantServiceRoles(db.sql);
    await denied(worker`select password_hash from merchant_users`);
  });

  it("refuses a process whose database user lacks its role's rights, as another role's or before migrate granted them", async () => {
    for (const role of SERVICE_ROLES) await requireRoleRights(db.sql, role);
    await requireRoleRights(webhooks, 'checkout_webhooks');
    await requireRoleRights(signer, 'checkout_signer');
    await requireRoleRights(worker, 'checkout_worker');
    // A webhook worker or a signer still given the worker's URL after an upgrade.
    await expect(requireRoleRights(worker, 'checkout_webhooks')).rejects.toThrow(
      /logs in as checkout_webhooks, whose rights its user lacks: insert on webhook_attempts, update \(state, delivered_at\) on webhook_deliveries, select \(webhook_secret_test, /,
    );
    await expect(requireRoleRights(worker, 'checkout_signer')).rejects.toThrow(
      /lacks: insert on payouts, update on payouts, insert on chain_intents, .*, and \d+ more/,
    );
  });
});
