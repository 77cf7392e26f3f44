// The admin CLI against this file's database and the run's Temporal server; effects are checked in Postgres, in
// Temporal and through the API. The overview, a refusal in JSON and a missing database are checked on the binary as
// operators run it, a real child process (`node --import tsx bin/admin.ts …`), for its exit code and output streams;
// the other commands run in process (test/support/adminCli.ts).
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId } from '../../domain/wire/ids';
import { bankTransferReference } from '../../domain/session/bankTransfer';
import { webhookTaskQueue } from '../../domain/taskQueues';
import { commandHelp, parseOptions } from '../../bin/admin/commandLine';
import { GROUPS } from '../../bin/admin/commandGroups';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const IBAN = 'DE89 3704 0044 0532 0130 00';

let service: TestService;
let merchant: TestMerchant;

const cli = adminCli(() => service);
const binary = adminCli(() => service, { process: true });
const admin = cli.run;
const adminJson = cli.json;

const readUnknownSession = (apiKey: string) => call(service.baseUrl, 'GET', `/checkout/sessions/${newSessionId()}`, { apiKey });

beforeAll(async () => {
  service = await startTestService({ worker: false });
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

describe('checkout-admin retention purge', () => {
  it('deletes what is past its age now and says how much per table', async () => {
    const [key] = await service.db.sql<
      { id: string }[]
    >`select id from api_keys where merchant_id = ${merchant.merchant.id} order by id limit 1`;
    await service.db
      .sql`insert into rate_limit_windows (api_key_id, window_start, request_count) values (${key!.id}, now() - interval '3 days', 1)`;
    const purged = await admin(['retention', 'purge', '--json']);
    expect(purged.code).toBe(0);
    expect(JSON.parse(purged.stdout)).toMatchObject({ deleted: { rateLimitWindows: 1, quotes: 0 } });
    expect(await service.db.sql`select count(*)::int as n from rate_limit_windows`).toEqual([{ n: 0 }]);
  });
});

describe('checkout-admin: help and errors', () => {
  it('prints help for the tool, a group and every command', async () => {
    const overview = await binary.run(['--help']);
    expect(overview.code).toBe(0);
    for (const line of [
      'merchant create',
      'key allow-ips',
      'webhook-secret rotate',
      'bank mark-received',
      'webhooks redeliver',
      'session cancel',
      'user invite',
      'retention purge',
      'audit list',
      'settlement list',
      'settlement show',
      'settlement retry',
      'sweep list',
      'sweep run',
      'treasury status',
      'treasury record-funding',
      'ledger reconcile',
    ])
      expect(overview.stdout).toContain(line);
    const listed = [...overview.stdout.matchAll(/^ {2}([a-z-]+ [a-z-]+) {2,}/gm)].map((m) => m[1]);
    expect(listed).toEqual(GROUPS.flatMap((group) => group.commands.map((command) => `${group.name} ${command.name}`)));
    const groupHelp = await admin(['sweep', '--help']);
    expect(groupHelp.code).toBe(0);
    expect(groupHelp.stdout).toContain('usage: checkout-admin sweep <command>');
    const oneCommand = await admin(['sweep', 'list', '--help']);
    expect(oneCommand.code).toBe(0);
    expect(oneCommand.stdout).toBe(
      `${commandHelp(
        GROUPS.find((g) => g.name === 'sweep')!,
        GROUPS.find((g) => g.name === 'sweep')!.commands.find((c) => c.name === 'list')!,
      )}\n`,
    );
    // Every other command's help, rendered as that process rendered this one: a process each would take minutes on a loaded machine.
    for (const group of GROUPS) {
      for (const command of group.commands) {
        expect(parseOptions(command, ['--help']).help, `${group.name} ${command.name}`).toBe(true);
        const help = commandHelp(group, command);
        expect(help).toContain(`checkout-admin ${group.name} ${command.name}:`);
        expect(help).toContain('--json');
      }
    }
  });

  it('refuses unknown commands and options and invalid values with exit 2 and one line', async () => {
    expectOneLineError(await admin(['nope']), 2, /^error: unknown command group nope/);
    expectOneLineError(await admin(['key', 'nope']), 2, /^error: unknown command key nope/);
    expectOneLineError(await admin(['key', 'create', '--bogus']), 2, /^error: Unknown option '--bogus'/);
    expectOneLineError(
      await admin(['key', 'create', '--merchant', 'm1', '--mode', 'prod']),
      2,
      /^error: --merchant: Must be a merchant id .*; --mode: Invalid enum value/,
    );
    const asJson = await binary.run(['key', 'create', '--mode', 'test', '--json']);
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stderr)).toEqual({ error: '--merchant: Required' });
  });

  it('names a missing DATABASE_URL in one line', async () => {
    // A DATA_DIR where no npm start runs: one running in this checkout would be found instead (bin/devState.ts).
    const dataDir = join(tmpdir(), `no-npm-start-${ulid()}`);
    expectOneLineError(
      await binary.run(['key', 'list', '--merchant', merchant.merchant.id], { DATABASE_URL: '', DATA_DIR: dataDir }),
      1,
      /DATABASE_URL: Required/,
    );
  });
});

describe('checkout-admin merchant create', () => {
  it('creates a merchant with every setting, warning about pairs live sessions cannot use', async () => {
    const run = await admin([
      'merchant',
      'create',
      '--name',
      'Acme',
      '--settlement-wallet',
      WALLET,
      '--tolerance-bps',
      '25',
      '--tolerance-min-cents',
      '5',
      '--session-lifetime-minutes',
      '30',
      '--tokens',
      'USDC:base,solana,tron;USDT:tron',
      '--underpaid-expiry',
      'refund',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim()).toBe('warning: USDC on tron has no mainnet contract: live sessions cannot be paid with it');
    const out = JSON.parse(run.stdout) as { merchant_id: string; warnings: string[] };
    expect(out).toMatchObject({
      name: 'Acme',
      settlement_wallet: WALLET,
      tolerance_bps: 25,
      tolerance_min_cents: 5,
      session_lifetime_minutes: 30,
      supported_tokens: { USDC: ['base', 'solana', 'tron'], USDT: ['tron'] },
      underpaid_expiry: 'refund',
    });
    expect(out.warnings).toHaveLength(1);
    const [row] = await service.db.sql<
      {
        settlement_wallet: string;
        tolerance_bps: number;
        tolerance_min_cents: bigint;
        session_lifetime_seconds: number;
        underpaid_expiry: string;
      }[]
    >`
      select settlement_wallet, tolerance_bps, tolerance_min_cents, session_lifetime_seconds, underpaid_expiry
      from merchants where id = ${out.merchant_id}`;
    expect(row).toEqual({
      settlement_wallet: WALLET,
      tolerance_bps: 25,
      tolerance_min_cents: 5n,
      session_lifetime_seconds: 1800,
      underpaid_expiry: 'refund',
    });
  });

  it('defaults to every pair with a mainnet contract and the standard tolerance and lifetime', async () => {
    const run = await admin(['merchant', 'create', '--name', 'Defaults', '--settlement-wallet', WALLET]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^merchant mer_[0-9A-Z]{26} created/);
    expect(run.stdout).toContain('50 bps, at least 1 cent(s)');
    expect(run.stdout).toContain('60 minutes');
    expect(run.stdout).toMatch(/underpaid expiry +settle/);
    expect(run.stdout).toContain(
      'USDC:ethereum,polygon,arbitrum,optimism,base,bsc,solana;USDT:ethereum,polygon,arbitrum,optimism,base,bsc,solana,tron',
    );
  });

  it('refuses a settlement wallet that is not a Solana address, and malformed token lists', async () => {
    expectOneLineError(
      await admin(['merchant', 'create', '--name', 'X', '--settlement-wallet', '0x52908400098527886E0F7030069857D2E4169EE7']),
      2,
      /--settlement-wallet: Must be a Solana address/,
    );
    expectOneLineError(
      await admin(['merchant', 'create', '--name', 'X', '--settlement-wallet', WALLET, '--tokens', 'USDC:base,moon;DAI:ethereum']),
      2,
      /unknown chain moon .*unknown token DAI/,
    );
    expectOneLineError(
      await admin(['merchant', 'create', '--name', 'X', '--settlement-wallet', WALLET, '--tolerance-bps', '1e3']),
      2,
      /--tolerance-bps: Must be a whole number/,
    );
  });
});

describe('checkout-admin key', () => {
  it('prints a new raw key once and stores only its hash; the key works on the API', async () => {
    const run = await admin(['key', 'create', '--merchant', merchant.merchant.id, '--mode', 'test', '--label', 'web server']);
    expect(run.code, run.stderr).toBe(0);
    // Not \b at the end: a key may end in '-', after which no word boundary comes (the test failed on such keys).
    const raw = /\b(mk_test_[A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/.exec(run.stdout)?.[1];
    expect(raw).toBeDefined();
    expect(run.stdout.split(raw!)).toHaveLength(2);
    const keyId = /API key (key_[0-9A-Z]{26})/.exec(run.stdout)?.[1];
    const [row] = await service.db.sql<
      { key_hash: Buffer; record: string }[]
    >`select key_hash, row_to_json(k)::text as record from api_keys k where id = ${keyId!}`;
    expect(row!.key_hash.equals(createHash('sha256').update(raw!).digest())).toBe(true);
    expect(row!.record).not.toContain(raw!.slice(8));
    expect((await readUnknownSession(raw!)).status).toBe(404);

    const listed = await admin(['key', 'list', '--merchant', merchant.merchant.id]);
    expect(listed.stdout).toContain(`mk_test_…${raw!.slice(-4)}`);
    expect(listed.stdout).toContain('web server');
    expect(listed.stdout).not.toContain(raw!);
  });

  it('lists keys as JSON with prefix, last four, mode, label, dates and allowlist', async () => {
    const out = (await adminJson(['key', 'list', '--merchant', merchant.merchant.id])) as { keys: Array<Record<string, unknown>> };
    expect(out.keys.length).toBeGreaterThanOrEqual(2);
    for (const key of out.keys) {
      expect(Object.keys(key).sort()).toEqual(['allowed_ips', 'created_at', 'key', 'key_id', 'label', 'merchant_id', 'mode', 'revoked_at']);
      expect(key.key).toMatch(/^mk_(test|live)_….{4}$/);
    }
    expectOneLineError(
      await admin(['key', 'list', '--merchant', 'mer_01ARZ3NDEKTSV4RRFFQ69G5FAV']),
      1,
      /merchant mer_01ARZ3NDEKTSV4RRFFQ69G5FAV does not exist/,
    );
  });

  it('revokes a key: the API refuses it from then on; revoking again changes nothing', async () => {
    const created = await adminJson(['key', 'create', '--merchant', merchant.merchant.id, '--mode', 'live']);
    const apiKey = created.api_key as string;
    expect((await readUnknownSession(apiKey)).status).toBe(404);
    const revoked = await adminJson(['key', 'revoke', '--key', created.key_id as string]);
    expect(revoked).toMatchObject({ key_id: created.key_id, already_revoked: false });
    expect(revoked.revoked_at).toEqual(expect.any(String));
    const refused = await readUnknownSession(apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Invalid API key' });
    expect(await adminJson(['key', 'revoke', '--key', created.key_id as string])).toMatchObject({ already_revoked: true });
    expectOneLineError(await admin(['key', 'revoke', '--key', `key_${ulid()}`]), 1, /does not exist/);
  });

  it('sets and clears an IP allowlist, enforced by the API', async () => {
    const created = await adminJson(['key', 'create', '--merchant', merchant.merchant.id, '--mode', 'test']);
    const keyId = created.key_id as string;
    const apiKey = created.api_key as string;

    const restricted = await adminJson(['key', 'allow-ips', '--key', keyId, '--ips', '10.0.0.0/8, 2001:db8::/32,10.0.0.0/8']);
    expect(restricted.allowed_ips).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    const refused = await readUnknownSession(apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Invalid API key' });

    await adminJson(['key', 'allow-ips', '--key', keyId, '--ips', '127.0.0.1']);
    expect((await readUnknownSession(apiKey)).status).toBe(404);

    const cleared = await adminJson(['key', 'allow-ips', '--key', keyId, '--clear']);
    expect(cleared.allowed_ips).toBeNull();
    const [row] = await service.db.sql<{ allowed_ips: string[] | null }[]>`select allowed_ips from api_keys where id = ${keyId}`;
    expect(row!.allowed_ips).toBeNull();

    expectOneLineError(
      await admin(['key', 'allow-ips', '--key', keyId, '--ips', '10.0.0.0/33,example.com']),
      2,
      /not an IP address or CIDR range: 10.0.0.0\/33, example.com/,
    );
    expectOneLineError(
      await admin(['key', 'allow-ips', '--key', keyId, '--ips', '10.0.0.1', '--clear']),
      2,
      /exactly one of --ips and --clear/,
    );
    expectOneLineError(await admin(['key', 'allow-ips', '--key', keyId]), 2, /exactly one of --ips and --clear/);
  });
});

describe('checkout-admin webhook-secret rotate', () => {
  it('replaces the secret of one mode and prints it once', async () => {
    const [before] = await service.db.sql<{ webhook_secret_test: string; webhook_secret_live: string }[]>`
      select webhook_secret_test, webhook_secret_live from merchants where id = ${merchant.merchant.id}`;
    const out = await adminJson(['webhook-secret', 'rotate', '--merchant', merchant.merchant.id, '--mode', 'test']);
    expect(out.webhook_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const [after] = await service.db.sql<{ webhook_secret_test: string; webhook_secret_live: string }[]>`
      select webhook_secret_test, webhook_secret_live from merchants where id = ${merchant.merchant.id}`;
    expect(after!.webhook_secret_test).toBe(out.webhook_secret);
    expect(after!.webhook_secret_test).not.toBe(before!.webhook_secret_test);
    expect(after!.webhook_secret_live).toBe(before!.webhook_secret_live);
    expectOneLineError(await admin(['webhook-secret', 'rotate', '--merchant', `mer_${ulid()}`, '--mode', 'live']), 1, /does not exist/);
  });

  it('keeps the replaced secret signing for 24 hours by default, for --overlap-hours, or not at all with 0', async () => {
    const overlap = async () =>
      (
        await service.db.sql<{ previous: string | null; until: Date | null; current: string }[]>`
          select webhook_secret_live_previous as previous, webhook_secret_live_previous_until as until, webhook_secret_live as current
          from merchants where id = ${merchant.merchant.id}`
      )[0]!;
    const before = (await overlap()).current;
    const out = await adminJson(['webhook-secret', 'rotate', '--merchant', merchant.merchant.id, '--mode', 'live']);
    const rotated = await overlap();
    expect(rotated.previous).toBe(before);
    expect(rotated.current).toBe(out.webhook_secret);
    expect(out.previous_secret_valid_until).toBe(rotated.until?.toISOString());
    expect(Math.abs(rotated.until!.getTime() - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);

    const twoHours = await adminJson([
      'webhook-secret',
      'rotate',
      '--merchant',
      merchant.merchant.id,
      '--mode',
      'live',
      '--overlap-hours',
      '2',
    ]);
    expect(Math.abs(new Date(twoHours.previous_secret_valid_until as string).getTime() - (Date.now() + 2 * 3_600_000))).toBeLessThan(
      60_000,
    );
    expect((await overlap()).previous).toBe(out.webhook_secret);

    const leaked = await adminJson([
      'webhook-secret',
      'rotate',
      '--merchant',
      merchant.merchant.id,
      '--mode',
      'live',
      '--overlap-hours',
      '0',
    ]);
    expect(leaked.previous_secret_valid_until).toBeNull();
    expect(await overlap()).toEqual({ previous: null, until: null, current: leaked.webhook_secret });
    expectOneLineError(
      await admin(['webhook-secret', 'rotate', '--merchant', merchant.merchant.id, '--mode', 'live', '--overlap-hours', '200']),
      2,
      /overlap-hours/,
    );
  });
});

describe('checkout-admin bank', () => {
  it('adds, lists and deactivates accounts, one active account per currency', async () => {
    const added = await adminJson([
      'bank',
      'add',
      '--merchant',
      merchant.merchant.id,
      '--currency',
      'eur',
      '--account-name',
      'Acme GmbH',
      '--bank-name',
      'Commerzbank',
      '--iban',
      IBAN,
      '--swift-bic',
      'cobadeffxxx',
    ]);
    expect(added).toMatchObject({
      currency: 'EUR',
      iban: 'DE89370400440532013000',
      swift_bic: 'COBADEFFXXX',
      active: true,
      account_number: null,
    });
    expectOneLineError(
      await admin([
        'bank',
        'add',
        '--merchant',
        merchant.merchant.id,
        '--currency',
        'EUR',
        '--account-name',
        'B',
        '--bank-name',
        'B',
        '--iban',
        IBAN,
      ]),
      1,
      new RegExp(`already has an active EUR account \\(${added.bank_account_id as string}\\)`),
    );
    const gbp = await adminJson([
      'bank',
      'add',
      '--merchant',
      merchant.merchant.id,
      '--currency',
      'GBP',
      '--account-name',
      'Acme Ltd',
      '--bank-name',
      'Barclays',
      '--account-number',
      '31926819',
      '--sort-code',
      '200000',
    ]);
    expect(gbp).toMatchObject({ sort_code: '20-00-00', account_number: '31926819', iban: null });

    const deactivated = await adminJson(['bank', 'deactivate', '--id', added.bank_account_id as string]);
    expect(deactivated).toMatchObject({ active: false, already_inactive: false });
    const listed = (await adminJson(['bank', 'list', '--merchant', merchant.merchant.id])) as {
      bank_accounts: Array<{ currency: string; active: boolean }>;
    };
    expect(listed.bank_accounts.map((a) => [a.currency, a.active])).toEqual([
      ['GBP', true],
      ['EUR', false],
    ]);
    const text = await admin(['bank', 'list', '--merchant', merchant.merchant.id]);
    expect(text.stdout).toContain('DE89370400440532013000');
    expect(text.stdout).toContain('20-00-00');
  });

  it('refuses invalid bank details before storing anything', async () => {
    const base = ['bank', 'add', '--merchant', merchant.merchant.id, '--currency', 'EUR', '--account-name', 'A', '--bank-name', 'B'];
    expectOneLineError(await admin([...base, '--iban', 'DE89 3704 0044 0532 0130 01']), 2, /--iban: Must be a valid IBAN/);
    expectOneLineError(await admin([...base]), 2, /give --iban or --account-number/);
    expectOneLineError(
      await admin([...base, '--iban', IBAN, '--swift-bic', 'COBA']),
      2,
      /--swift-bic: Must be an 8 or 11 character SWIFT\/BIC/,
    );
    expectOneLineError(
      await admin([...base.slice(0, 5), 'EURO', ...base.slice(6), '--iban', IBAN]),
      2,
      /--currency: Must be an ISO 4217 currency code/,
    );
  });

  it('signals a received bank transfer to the session workflow', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { amount_usd: 25.5 }),
    });
    const sessionId = created.body.data?.session_id as string;
    const reference = bankTransferReference(sessionId);

    const run = await admin([
      'bank',
      'mark-received',
      '--session',
      sessionId,
      '--amount-usd',
      '25.50',
      '--reference',
      `Order ${reference}`,
      '--by',
      'alice',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({
      session_id: sessionId,
      amount_usd: 25.5,
      amount_usd_cents: '2550',
      received_by: 'alice',
    });

    const history = await service.temporal.workflow.getHandle(sessionId).fetchHistory();
    const signals = (history.events ?? []).flatMap((event) => {
      const attributes = event.workflowExecutionSignaledEventAttributes;
      return attributes?.signalName === 'bankTransferReceived'
        ? [defaultPayloadConverter.fromPayload(attributes.input!.payloads![0]!)]
        : [];
    });
    expect(signals).toEqual([{ amountUsdCents: '2550', reference: `Order ${reference}`, receivedBy: 'alice' }]);

    // Text straight to cents: through a JS number this amount would come out as …994.
    const exact = await admin([
      'bank',
      'mark-received',
      '--session',
      sessionId,
      '--amount-usd',
      '90071992547409.93',
      '--reference',
      `${reference}-2`,
      '--json',
    ]);
    expect(JSON.parse(exact.stdout)).toMatchObject({ amount_usd_cents: '9007199254740993' });

    expectOneLineError(
      await admin(['bank', 'mark-received', '--session', sessionId, '--amount-usd', '1', '--reference', 'CS-0000000000']),
      1,
      new RegExp(`does not contain the session's reference ${reference}; .*give --force`),
    );

    expectOneLineError(
      await admin(['bank', 'mark-received', '--session', sessionId, '--amount-usd', '25.505', '--reference', reference]),
      2,
      /--amount-usd: Must be a USD amount with at most 2 decimals/,
    );
    expectOneLineError(
      await admin(['bank', 'mark-received', '--session', newSessionId(), '--amount-usd', '1', '--reference', reference]),
      1,
      /session cs_\w+ does not exist/,
    );
  });
});

describe('checkout-admin webhooks', () => {
  let sessionId: string;
  const deliveryId = `wh_${ulid()}`;

  beforeAll(async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id),
    });
    sessionId = created.body.data?.session_id as string;
    await service.db.sql`
      insert into webhook_deliveries (id, session_id, event, status_version, url, body, state)
      values (${deliveryId}, ${sessionId}, 'payment.completed', 3, 'https://merchant.example/hook', '{}', 'failed')`;
    await service.db.sql`
      insert into webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error) values
        (${deliveryId}, 1, now() - interval '2 minutes', null, 10000, 'timeout after 10000 ms'),
        (${deliveryId}, 2, now() - interval '1 minute', 500, 87, 'HTTP 500')`;
  });

  it("lists a session's deliveries with every attempt", async () => {
    const out = (await adminJson(['webhooks', 'list', '--session', sessionId])) as { deliveries: Array<Record<string, unknown>> };
    expect(out.deliveries).toEqual([
      expect.objectContaining({
        delivery_id: deliveryId,
        event: 'payment.completed',
        state: 'failed',
        delivered_at: null,
        attempts: [
          expect.objectContaining({ attempt: 1, status_code: null, latency_ms: 10000, error: 'timeout after 10000 ms' }),
          expect.objectContaining({ attempt: 2, status_code: 500, latency_ms: 87, error: 'HTTP 500' }),
        ],
      }),
    ]);
    const text = await admin(['webhooks', 'list', '--session', sessionId]);
    expect(text.stdout).toContain(deliveryId);
    expect(text.stdout).toMatch(/2\s+\S+\s+500\s+87 ms\s+HTTP 500/);
  });

  it('starts the delivery workflow again under a fresh id, keeping the wh_ id as the delivery', async () => {
    const out = await adminJson(['webhooks', 'redeliver', '--delivery', deliveryId]);
    expect(out.workflow_id).toMatch(new RegExp(`^${deliveryId}-redeliver-[0-9A-HJKMNP-TV-Z]{26}$`));
    const handle = service.temporal.workflow.getHandle(out.workflow_id as string);
    try {
      const description = await handle.describe();
      expect(description.type).toBe('webhookDelivery');
      expect(description.taskQueue).toBe(webhookTaskQueue(service.config.temporal.taskQueue));
      const history = await handle.fetchHistory();
      const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
      expect(started?.input?.payloads?.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([{ deliveryId }]);
    } finally {
      await handle.terminate('test over');
    }
    const again = await adminJson(['webhooks', 'redeliver', '--delivery', deliveryId]);
    expect(again.workflow_id).not.toBe(out.workflow_id);
    await service.temporal.workflow.getHandle(again.workflow_id as string).terminate('test over');
    expectOneLineError(await admin(['webhooks', 'redeliver', '--delivery', `wh_${ulid()}`]), 1, /webhook delivery wh_\w+ does not exist/);
  });
});

describe('checkout-admin user', () => {
  it('invites the first dashboard user with a one-time link that signs them in once, and audits it as the operator', async () => {
    const out = await adminJson([
      'user',
      'invite',
      '--merchant',
      merchant.merchant.id,
      '--email',
      'Owner@Example.com',
      '--operator',
      'olivia',
    ]);
    expect(out).toMatchObject({ merchant_id: merchant.merchant.id, email: 'owner@example.com' });
    const link = new URL(out.invitation_url as string);
    expect(link.pathname).toBe('/dashboard/invite');
    const accept = () =>
      fetch(`${service.baseUrl}/dashboard/api/invite/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: link.hash.slice(1), password: 'a long enough password' }),
      });
    const first = await accept();
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toMatch(/^dashboard_session=/);
    expect((await accept()).status).toBe(400);
    const [audit] = await service.db.sql<{ actor_kind: string; actor_id: string; action: string }[]>`
      select actor_kind, actor_id, action from audit_events where merchant_id = ${merchant.merchant.id} and action = 'user.invite'`;
    expect(audit).toEqual({ actor_kind: 'operator', actor_id: 'olivia', action: 'user.invite' });

    expectOneLineError(
      await admin(['user', 'invite', '--merchant', merchant.merchant.id, '--email', 'owner@example.com']),
      1,
      /already has a dashboard account/,
    );
    expectOneLineError(await admin(['user', 'invite', '--merchant', merchant.merchant.id, '--email', 'not-an-email']), 2, /--email/);
  });
});
