// Every admin command that changes something leaves one audit row (operator, arguments
// with secrets redacted, targets, outcome), refusals included; `audit list` reads them back. And a bank
// transfer is credited to a session only if its reference names the session, or with --force.
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { defaultPayloadConverter } from '@temporalio/common';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUPS } from '../../bin/admin/commandGroups';
import { insertDashboardSession } from '../../db/repositories/dashboardSessions';
import { postLedger } from '../../db/repositories/ledger';
import { insertSessionRecord, insertSessionUnderCap } from '../../db/repositories/sessions';
import { tronAddressFromEvmHex } from '../../domain/addresses/tron';
import { bankTransferReference } from '../../domain/session/bankTransfer';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import { ensureSweepSchedules } from '../../worker/sweepSchedules';
import { adminCli, expectOneLineError, type CliRun } from '../support/adminCli';
import { insertFailedSettlement } from '../support/failedSettlements';
import { createBankAccount, createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { insertTestPayout } from '../support/payouts';
import { insertLateDeposit, insertTestRefund } from '../support/refunds';
import { sessionRecord } from '../support/sessionRecords';
import { startTestService, type TestService } from '../support/service';
import { startTreasuryChain } from '../support/treasuryChain';
import { startTronWalletNode } from '../support/tron/tronWalletNode';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const randomTronAddress = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);

let service: TestService;
let merchant: TestMerchant;
const cli = adminCli(() => service);

interface AuditRow {
  operator: string;
  operator_source: string;
  action: string;
  arguments: Record<string, string | boolean>;
  targets: string[];
  outcome: string | null;
  error: string | null;
}

const lastId = async () => (await service.db.sql<{ id: string }[]>`select coalesce(max(id), 0)::text as id from admin_audit_events`)[0]!.id;
const rowsAfter = (id: string) =>
  service.db.sql<
    AuditRow[]
  >`select operator, operator_source, action, arguments, targets, outcome, error from admin_audit_events where id > ${id} order by id`;

/** Runs one command and returns what it printed and the audit rows it wrote. */
async function audited(args: string[], env?: Record<string, string>): Promise<{ run: CliRun; rows: AuditRow[] }> {
  const before = await lastId();
  const run = await cli.run(args, env);
  return { run, rows: await rowsAfter(before) };
}

async function createSession(): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id, { amount_usd: 25.5 }),
  });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

async function bankSignals(sessionId: string): Promise<unknown[]> {
  const history = await service.temporal.workflow.getHandle(sessionId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const attributes = event.workflowExecutionSignaledEventAttributes;
    return attributes?.signalName === 'bankTransferReceived' ? [defaultPayloadConverter.fromPayload(attributes.input!.payloads![0]!)] : [];
  });
}

const paymentRows = (sessionId: string) => service.db.sql<{ chain: string; received: string }[]>`
  select chain, received_base_units::text as received from payments where session_id = ${sessionId}`;

beforeAll(async () => {
  service = await startTestService();
  merchant = await createTestMerchant(service.db.sql);
  // Sessions of this merchant accept bank transfers.
  await createBankAccount(service.db.sql, merchant.merchant.id, 'EUR');
});
afterAll(() => service?.stop());

// Each command is a CLI process of its own (a few seconds each on a loaded machine): these tests are long by nature.
describe('the admin audit trail', { timeout: 180_000 }, () => {
  // Some thirty processes one after another: more than the others' time on a loaded machine.
  it('writes exactly one row per state-changing command, with the operator, its arguments and what it touched; read-only commands write none', async () => {
    const as = ['--operator', 'alice'];
    const ok = async (
      args: string[],
      expected: { arguments: Record<string, string | boolean>; targets: (out: Record<string, unknown>) => string[] },
      env?: Record<string, string>,
    ) => {
      const { run, rows } = await audited([...args, ...as, '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(rows).toEqual([
        {
          operator: 'alice',
          operator_source: 'option',
          action: `${args[0]}.${args[1]}`,
          arguments: expected.arguments,
          targets: expected.targets(out),
          outcome: 'ok',
          error: null,
        },
      ]);
      return out;
    };

    const created = await ok(['merchant', 'create', '--name', 'Audited', '--settlement-wallet', WALLET], {
      arguments: { name: 'Audited', 'settlement-wallet': WALLET },
      targets: (out) => [out.merchant_id as string],
    });
    const merchantId = created.merchant_id as string;
    const fee = await ok(['merchant', 'set-fee', merchantId, '--bps', '150', '--fixed-cents', '30'], {
      arguments: { merchant: merchantId, bps: '150', 'fixed-cents': '30' },
      targets: () => [merchantId],
    });
    expect(fee).toMatchObject({ fee_bps: 150, fee_fixed_cents: 30, previous: { fee_bps: 0, fee_fixed_cents: 0 } });
    expect(await service.db.sql`select fee_bps, fee_fixed_cents::int as fee_fixed_cents from merchants where id = ${merchantId}`).toEqual([
      { fee_bps: 150, fee_fixed_cents: 30 },
    ]);
    const key = await ok(['key', 'create', '--merchant', merchantId, '--mode', 'test', '--label', 'web'], {
      arguments: { merchant: merchantId, mode: 'test', label: 'web' },
      targets: (out) => [out.key_id as string],
    });
    const keyId = key.key_id as string;
    await ok(['key', 'allow-ips', '--key', keyId, '--ips', '10.0.0.0/8'], {
      arguments: { key: keyId, ips: '10.0.0.0/8' },
      targets: () => [keyId],
    });
    await ok(['key', 'revoke', '--key', keyId], { arguments: { key: keyId }, targets: () => [keyId] });
    const secret = await ok(['webhook-secret', 'rotate', '--merchant', merchantId, '--mode', 'live', '--overlap-hours', '0'], {
      arguments: { merchant: merchantId, mode: 'live', 'overlap-hours': '0' },
      targets: () => [merchantId],
    });
    const account = await ok(
      [
        'bank',
        'add',
        '--merchant',
        merchantId,
        '--currency',
        'GBP',
        '--account-name',
        'A Ltd',
        '--bank-name',
        'Barclays',
        '--account-number',
        '31926819',
        '--sort-code',
        '200000',
      ],
      {
        arguments: {
          merchant: merchantId,
          currency: 'GBP',
          'account-name': 'A Ltd',
          'bank-name': 'Barclays',
          'account-number': '31926819',
          'sort-code': '200000',
        },
        targets: (out) => [out.bank_account_id as string],
      },
    );
    const accountId = account.bank_account_id as string;
    await ok(['bank', 'deactivate', '--id', accountId], { arguments: { id: accountId }, targets: () => [accountId] });

    const paid = await createSession();
    const reference = bankTransferReference(paid);
    await ok(['bank', 'mark-received', '--session', paid, '--amount-usd', '1.00', '--reference', reference], {
      arguments: { session: paid, 'amount-usd': '1.00', reference },
      targets: () => [paid],
    });
    const cancelled = await createSession();
    await ok(['session', 'cancel', cancelled, '--reason', 'audit test'], {
      arguments: { session: cancelled, reason: 'audit test' },
      targets: () => [cancelled],
    });
    // A refund with no workflow running: the row is cancelled, the missing workflow only warned about.
    const refund = await insertTestRefund(service.db.sql, { merchantId: merchant.merchant.id, sessionId: paid });
    await ok(['refund', 'cancel', refund.id, '--reason', 'audit test'], {
      arguments: { refund: refund.id, reason: 'audit test' },
      targets: () => [refund.id],
    });
    // An automatic refund that ended unpaid, given back to its customer as a new one (its workflow sits on no worker).
    const ended = await insertTestRefund(
      service.db.sql,
      { merchantId: merchant.merchant.id, sessionId: paid },
      { deposit: await insertLateDeposit(service.db.sql, paid, 1_000_000n), status: 'expired' },
    );
    const reissued = await ok(['refund', 'reissue', ended.id], {
      arguments: { refund: ended.id },
      targets: (out) => [ended.id, out.reissued_as as string],
    });
    await service.temporal.workflow.getHandle(`refund_${reissued.reissued_as as string}`).terminate('test over');
    // A deposit the indexer marked late after its session's workflow ended: its refund is opened and its workflow started.
    const closed = sessionRecord(merchant.merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(service.db.sql, closed, 'expired');
    await service.db.sql`
      insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                            block_number, block_hash, stage, confirmations, credited, late)
      values ('base', ${`0x${randomBytes(32).toString('hex')}`}, 0, 'testnet', ${closed.sessionId}, 'USDC', 1000000, '0xpayer',
              '0xdeposit', 10, '0xbh', 'confirmed', 64, false, true)`;
    const openedMissing = await ok(['refund', 'open-missing', '--mode', 'test'], {
      arguments: { mode: 'test' },
      targets: (out) => (out.refunds as { refund_id: string }[]).map((r) => r.refund_id),
    });
    expect(openedMissing.refunds).toHaveLength(1);
    // A session a failed create left without its workflow, written half an hour ago.
    const unstarted = sessionRecord(merchant.merchant.id, { createdAt: new Date(Date.now() - 30 * 60_000), lifetimeMinutes: 60 });
    expect(await insertSessionUnderCap(service.db.sql, unstarted, 1_000_000)).toBe(true);
    await ok(['session', 'start-unstarted', '--limit', '10'], { arguments: { limit: '10' }, targets: () => [unstarted.sessionId] });

    const deliveryId = `wh_${ulid()}`;
    await service.db.sql`
      insert into webhook_deliveries (id, session_id, event, status_version, url, body, state)
      values (${deliveryId}, ${cancelled}, 'payment.completed', 9, 'https://merchant.example/hook', '{}', 'failed')`;
    const redelivered = await ok(['webhooks', 'redeliver', '--delivery', deliveryId], {
      arguments: { delivery: deliveryId },
      targets: (out) => [deliveryId, out.workflow_id as string],
    });
    await service.temporal.workflow.getHandle(redelivered.workflow_id as string).terminate('test over');

    const invited = await ok(['user', 'invite', '--merchant', merchantId, '--email', 'audited@example.com'], {
      arguments: { merchant: merchantId, email: 'audited@example.com' },
      targets: (out) => [out.user_id as string],
    });
    // The user lost their authenticator while signed in somewhere: the reset removes both.
    await service.db
      .sql`update merchant_users set totp_secret = 'v1:sealed', totp_enabled_at = now() where id = ${invited.user_id as string}`;
    await insertDashboardSession(service.db.sql, randomBytes(32), invited.user_id as string, 'csrf');
    const reset = await ok(['user', 'reset-totp', '--email', 'Audited@example.com'], {
      arguments: { email: 'Audited@example.com' },
      targets: () => [invited.user_id as string],
    });
    expect(reset).toMatchObject({ had_totp: true, sessions_ended: 1 });
    expect(await service.db.sql`select totp_secret, totp_enabled_at from merchant_users where id = ${invited.user_id as string}`).toEqual([
      { totp_secret: null, totp_enabled_at: null },
    ]);
    expect(await service.db.sql`select 1 from dashboard_sessions where user_id = ${invited.user_id as string}`).toHaveLength(0);
    await ok(['retention', 'purge'], { arguments: {}, targets: () => [] });
    // A paid payment: retry changes nothing (adminSettlement.test.ts covers the retries that start a workflow).
    const paidOut = await insertTestPayout(service.db.sql, merchant.merchant.id, {
      status: 'confirmed',
      amount: 1_000_000n,
      settlement: 'settled',
    });
    await ok(['settlement', 'retry', paidOut.paymentId], { arguments: { payment: paidOut.paymentId }, targets: () => [paidOut.paymentId] });
    // Settled already: resettle and repay change nothing (test/workflows/settlementRemedies.test.ts runs them for real).
    await ok(['settlement', 'resettle', paidOut.paymentId], {
      arguments: { payment: paidOut.paymentId },
      targets: () => [paidOut.paymentId],
    });
    await ok(['settlement', 'repay', paidOut.paymentId, '--confirm'], {
      arguments: { payment: paidOut.paymentId, confirm: true },
      targets: () => [paidOut.paymentId, `payout:${paidOut.paymentId}`],
    });
    // A failed settlement with no payout, given back to the customer (adminSettlementRefund.test.ts covers its refusals).
    const failedSettlement = await insertFailedSettlement(service.db.sql, merchant.merchant.id, [1_000_000n]);
    const given = await ok(['settlement', 'refund', failedSettlement.paymentId, '--confirm'], {
      arguments: { payment: failedSettlement.paymentId, confirm: true },
      targets: (out) => [
        failedSettlement.paymentId,
        failedSettlement.sessionId,
        ...(out.refunds as { refund_id: string }[]).map((r) => r.refund_id),
      ],
    });
    expect(given.refunds).toHaveLength(1);
    const livePaid = await insertTestPayout(service.db.sql, merchant.merchant.id, {
      status: 'confirmed',
      amount: 1_000_000n,
      mode: 'live',
      settlement: 'settled',
    });
    await ok(['settlement', 'approve', '--payment', livePaid.paymentId], {
      arguments: { payment: livePaid.paymentId },
      targets: () => [livePaid.paymentId],
    });
    const swept = await ok(['sweep', 'run', '--mode', 'test'], {
      arguments: { mode: 'test' },
      targets: (out) => [out.workflow_id as string],
    });
    await service.temporal.workflow
      .getHandle(swept.workflow_id as string)
      .terminate('test over')
      .catch(() => undefined);
    // A scope no other test file's schedule has: they share the Temporal server, and this one triggers and deletes it.
    const evmScope = { chain: 'arbitrum', token: 'USDC', mode: 'test' } as const;
    await ensureSweepSchedules(service.temporal, {
      taskQueue: service.config.temporal.taskQueue,
      intervalSeconds: 3600,
      evmScopes: [evmScope],
    });
    const evmSchedule = service.temporal.schedule.getHandle(evmSweepScheduleId(evmScope));
    try {
      await ok(['sweep', 'now', '--chain', 'arbitrum', '--token', 'usdc', '--mode', 'test'], {
        arguments: { chain: 'arbitrum', token: 'usdc', mode: 'test' },
        targets: (out) => [out.schedule_id as string],
      });
    } finally {
      await evmSchedule.delete();
    }
    // A top-up of a treasury on the local Solana chain, recorded from its landed transaction.
    const solana = await startTreasuryChain(1_000_000n);
    try {
      await ok(
        ['treasury', 'record-funding', '--mode', 'test', '--signature', solana.topUp],
        {
          arguments: { mode: 'test', signature: solana.topUp },
          targets: () => [`treasury-funding:${solana.topUp}`],
        },
        solana.env,
      );
    } finally {
      await solana.stop();
    }
    // Held inventory: a withdrawal of what the ledger holds in the bsc collector, and USDC a rebalancing brought back.
    await postLedger(service.db.sql, {
      groupId: 'audit-test:held-inventory',
      mode: 'test',
      reference: 'audit-test:held-inventory',
      entries: [
        { account: 'collector:bsc', asset: 'usdt:bsc', amount: 5n * 10n ** 18n },
        { account: 'cross_chain_clearing', asset: 'usdt:bsc', amount: -5n * 10n ** 18n },
        { account: 'rebalancing:tron', asset: 'usdt:tron', amount: 2_000_000n },
        { account: 'cross_chain_clearing', asset: 'usdt:tron', amount: -2_000_000n },
      ],
    });
    await ok(
      ['inventory', 'withdraw', 'USDT:bsc', '--amount', 'all', '--mode', 'test'],
      { arguments: { pair: 'USDT:bsc', amount: 'all', mode: 'test' }, targets: (out) => [out.id as string] },
      { INVENTORY_REBALANCE_ADDRESS_BSC_TEST: '0x00000000000000000000000000000000000000b2' },
    );
    const rebalanced = await startTreasuryChain(1_990_000n);
    try {
      await ok(
        ['inventory', 'record-rebalanced', 'tron', '--usdc', '1.99', '--signature', rebalanced.topUp, '--mode', 'test'],
        {
          arguments: { chain: 'tron', usdc: '1.99', signature: rebalanced.topUp, mode: 'test' },
          targets: () => [`inventory-rebalanced:tron:${rebalanced.topUp}`],
        },
        rebalanced.env,
      );
    } finally {
      await rebalanced.stop();
    }
    // A forwarder address whose sweep reverted, taken back into sweeps by an operator.
    const blocked = '0x00000000000000000000000000000000000000a1';
    await service.db.sql`insert into sweep_address_failures (mode, chain, token, address, failures, last_error)
                         values ('test', 'base', 'USDC', ${blocked}, 3, 'TransferFailed(token)')`;
    await ok(['sweep', 'clear-failure', '--chain', 'base', '--token', 'usdc', '--mode', 'test', '--address', blocked], {
      arguments: { chain: 'base', token: 'usdc', mode: 'test', address: blocked },
      targets: () => [blocked],
    });
    // A top-up of the Tron relayer on the stand-in node, recorded from its solidified transaction.
    const tron = await startTronWalletNode();
    try {
      const [relayer, funder] = [randomTronAddress(), randomTronAddress()];
      await service.db
        .sql`insert into relayer_balances (chain, mode, address, balance_wei, observed_at) values ('tron', 'test', ${relayer}, 0, now())`;
      tron.setTrx(funder, 500_000_000n);
      const topUp = tron.payTrx(funder, relayer, 100_000_000n);
      tron.mineEmpty(2);
      await ok(
        ['treasury', 'record-relayer-funding', '--mode', 'test', '--chain', 'tron', '--tx', topUp],
        { arguments: { mode: 'test', chain: 'tron', tx: topUp }, targets: () => [`relayer-funding:tron:${topUp}`] },
        { TRON_HTTP_API_URL_TESTNET: tron.url },
      );
    } finally {
      await tron.close();
    }

    for (const args of [
      ['key', 'list', '--merchant', merchantId],
      ['bank', 'list', '--merchant', merchantId],
      ['webhooks', 'list', '--session', paid],
      ['refund', 'list', '--session', paid],
      ['refund', 'show', refund.id],
      ['refund', 'stuck'],
      ['audit', 'list'],
      ['routes', '--mode', 'test'],
    ]) {
      const { run, rows } = await audited(args);
      expect(run.code, run.stderr).toBe(0);
      expect(rows).toEqual([]);
    }
    // `routes` judges the 16 live pairs: the listed default USDC:solana is ready once an indexer watches solana.
    const routes = await audited(['routes', 'show', '--json'], { RPC_URLS_SOLANA_MAINNET: 'https://solana.example' });
    expect(routes.run.code, routes.run.stderr).toBe(0);
    expect(routes.rows).toEqual([]);
    const pairs = (JSON.parse(routes.run.stdout) as { pairs: { pair: string; ready: boolean }[] }).pairs;
    expect(pairs).toHaveLength(16);
    expect(pairs.filter((pair) => pair.ready).map((pair) => pair.pair)).toEqual(['USDC:solana']);

    // Every command that is not read-only was run above: a new one must join this test.
    const auditedActions = GROUPS.flatMap((group) =>
      group.commands.filter((command) => !command.readOnly).map((command) => `${group.name}.${command.name}`),
    );
    const recorded = (
      await service.db.sql<{ action: string }[]>`select distinct action from admin_audit_events where operator = 'alice' and outcome = 'ok'`
    ).map((r) => r.action);
    expect(recorded.sort()).toEqual(auditedActions.sort());

    // The secrets those commands printed were never written to the trail.
    const trail = (
      await service.db.sql<{ text: string }[]>`select coalesce(string_agg(row_to_json(a)::text, ' '), '') as text from admin_audit_events a`
    )[0]!.text;
    const inviteToken = new URL(invited.invitation_url as string).hash.slice(1);
    for (const printed of [key.api_key as string, secret.webhook_secret as string, inviteToken]) {
      expect(printed.length).toBeGreaterThan(20);
      expect(trail).not.toContain(printed);
    }
  }, 360_000);

  it('writes no row for the settlement, treasury and sweep read commands', async () => {
    const paidOut = await insertTestPayout(service.db.sql, merchant.merchant.id, {
      status: 'confirmed',
      amount: 2_000_000n,
      settlement: 'settled',
    });
    for (const args of [
      ['settlement', 'list', '--stuck'],
      ['settlement', 'show', paidOut.paymentId],
      ['treasury', 'status'],
      ['sweep', 'list', '--mode', 'live'],
    ]) {
      const { run, rows } = await audited(args);
      expect(run.code, run.stderr).toBe(0);
      expect(rows).toEqual([]);
    }
  });

  it('records --operator over CHECKOUT_OPERATOR over the login name', async () => {
    const args = ['user', 'invite', '--merchant', merchant.merchant.id, '--email', 'not-an-email'];
    expect((await audited([...args, '--operator', 'carol'], { CHECKOUT_OPERATOR: 'dave' })).rows).toMatchObject([
      { operator: 'carol', operator_source: 'option' },
    ]);
    expect((await audited(args, { CHECKOUT_OPERATOR: 'dave' })).rows).toMatchObject([{ operator: 'dave', operator_source: 'env' }]);
    expect((await audited(args)).rows).toMatchObject([{ operator: userInfo().username, operator_source: 'os' }]);
  });

  it('audits refused commands, which change nothing', async () => {
    const merchants = async () => (await service.db.sql<{ n: number }[]>`select count(*)::int as n from merchants`)[0]!.n;
    const before = await merchants();

    const invalid = await audited(['merchant', 'create', '--name', 'X', '--settlement-wallet', '0xnot-solana', '--operator', 'erin']);
    expectOneLineError(invalid.run, 2, /--settlement-wallet: Must be a Solana address/);
    expect(invalid.rows).toEqual([
      {
        operator: 'erin',
        operator_source: 'option',
        action: 'merchant.create',
        arguments: { name: 'X', 'settlement-wallet': '0xnot-solana' },
        targets: [],
        outcome: 'refused',
        error: '--settlement-wallet: Must be a Solana address (base58 of 32 bytes)',
      },
    ]);

    const feeBefore = await service.db.sql`select fee_bps, fee_fixed_cents from merchants where id = ${merchant.merchant.id}`;
    const badFee = await audited([
      'merchant',
      'set-fee',
      merchant.merchant.id,
      '--bps',
      '10001',
      '--fixed-cents',
      '0',
      '--operator',
      'erin',
    ]);
    expectOneLineError(badFee.run, 2, /--bps: /);
    expect(badFee.rows).toMatchObject([{ action: 'merchant.set-fee', outcome: 'refused' }]);
    const noMerchant = `mer_${ulid()}`;
    const unknownFee = await audited(['merchant', 'set-fee', noMerchant, '--bps', '10', '--fixed-cents', '0', '--operator', 'erin']);
    expectOneLineError(unknownFee.run, 1, new RegExp(`no merchant ${noMerchant}`));
    expect(await service.db.sql`select fee_bps, fee_fixed_cents from merchants where id = ${merchant.merchant.id}`).toEqual(feeBefore);

    const missing = `key_${ulid()}`;
    const unknown = await audited(['key', 'revoke', '--key', missing, '--operator', 'erin']);
    expectOneLineError(unknown.run, 1, /does not exist/);
    expect(unknown.rows).toMatchObject([
      { action: 'key.revoke', arguments: { key: missing }, outcome: 'refused', error: `API key ${missing} does not exist` },
    ]);

    // A command line the parser refuses is recorded without its arguments.
    const malformed = await audited(['key', 'create', '--bogus', 'x', '--operator', 'erin']);
    expectOneLineError(malformed.run, 2, /Unknown option '--bogus'/);
    expect(malformed.rows).toMatchObject([
      { action: 'key.create', arguments: {}, outcome: 'refused', error: expect.stringMatching(/Unknown option '--bogus'/) },
    ]);

    const badOperator = await audited(['merchant', 'create', '--name', 'Y', '--settlement-wallet', WALLET, '--operator', 'x'.repeat(101)]);
    expectOneLineError(badOperator.run, 2, /^error: --operator: Must be 1 to 100 characters/);
    expect(badOperator.rows).toMatchObject([
      { operator: userInfo().username, operator_source: 'os', action: 'merchant.create', outcome: 'refused' },
    ]);

    expect(await merchants()).toBe(before);
  });

  it('lists the trail, newest first, as text and JSON, from a time on and up to a limit', async () => {
    const missing = `key_${ulid()}`;
    await cli.run(['key', 'revoke', '--key', missing, '--operator', 'frank']);

    const text = await cli.run(['audit', 'list', '--limit', '3']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT\s+OPERATOR\s+COMMAND\s+OUTCOME\s+TARGETS\s+ARGUMENTS\s+ERROR$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`frank\\s+key revoke\\s+refused\\s+-\\s+--key "${missing}"\\s+API key ${missing} does not exist$`));

    const newest = (await cli.json(['audit', 'list', '--limit', '1'])) as { events: Array<Record<string, unknown>> };
    expect(newest.events).toEqual([
      expect.objectContaining({
        operator: 'frank',
        operator_source: 'option',
        action: 'key.revoke',
        arguments: { key: missing },
        targets: [],
        outcome: 'refused',
      }),
    ]);
    const since = newest.events[0]!.at as string;
    const fromThen = (await cli.json(['audit', 'list', '--since', since])) as { events: unknown[] };
    expect(fromThen.events).toHaveLength(1);
    expect(((await cli.json(['audit', 'list', '--since', '2999-01-01'])) as { events: unknown[] }).events).toEqual([]);

    expectOneLineError(
      await cli.run(['audit', 'list', '--since', '2025-01-31T09:00:00']),
      2,
      /--since: Must be a date .* or a time with its zone/,
    );
    expectOneLineError(await cli.run(['audit', 'list', '--limit', '0']), 2, /--limit: /);
  });
});

describe('checkout-admin bank mark-received: the reference', () => {
  it('refuses a reference that does not name the session, changing nothing; --force credits it and the trail says so', async () => {
    const sessionId = await createSession();
    const expected = bankTransferReference(sessionId);

    const refused = await audited([
      'bank',
      'mark-received',
      '--session',
      sessionId,
      '--amount-usd',
      '25.50',
      '--reference',
      'INVOICE 118',
      '--operator',
      'grace',
    ]);
    expectOneLineError(
      refused.run,
      1,
      new RegExp(`^error: reference INVOICE 118 does not contain the session's reference ${expected}; .*--force`),
    );
    expect(refused.rows).toMatchObject([
      { operator: 'grace', action: 'bank.mark-received', outcome: 'refused', targets: [], error: expect.stringContaining(expected) },
    ]);
    expect(await bankSignals(sessionId)).toEqual([]);
    expect(await paymentRows(sessionId)).toEqual([]);

    const forced = await audited([
      'bank',
      'mark-received',
      '--session',
      sessionId,
      '--amount-usd',
      '25.50',
      '--reference',
      'INVOICE 118',
      '--force',
      '--operator',
      'grace',
      '--json',
    ]);
    expect(forced.run.code, forced.run.stderr).toBe(0);
    expect(forced.run.stderr).toContain(`does not contain the session's reference ${expected}; credited because of --force`);
    expect(JSON.parse(forced.run.stdout)).toMatchObject({ session_id: sessionId, forced: true, received_by: 'operator:grace' });
    expect(forced.rows).toEqual([
      {
        operator: 'grace',
        operator_source: 'option',
        action: 'bank.mark-received',
        arguments: { session: sessionId, 'amount-usd': '25.50', reference: 'INVOICE 118', force: true },
        targets: [sessionId],
        outcome: 'ok',
        error: null,
      },
    ]);
    expect(await bankSignals(sessionId)).toEqual([{ amountUsdCents: '2550', reference: 'INVOICE 118', receivedBy: 'operator:grace' }]);
    await expect.poll(() => paymentRows(sessionId), { timeout: 15_000 }).toEqual([{ chain: 'bank', received: '25500000' }]);
  });
});
