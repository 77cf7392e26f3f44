// The API, worker and signer processes (bin/api.ts, bin/worker.ts, bin/signer.ts) at debug level through a whole
// flow: session created, payment selected (a Solana pair, through the signer, then an EVM one), completion
// simulated, webhook delivered. Every stdout line is JSON; API lines carry the request id, activity lines the
// workflow id; no line holds a credential: the raw API key, the session token, the webhook secret, the
// session-token HMAC key, the TOTP encryption key, the deposit mnemonic (given to the signer alone) or the DB
// password. Nor does any payload in the Temporal history of the flow's workflows, which is why it needs no payload
// codec (docs/operations.md#temporal-mtls).
// The worker's Prometheus endpoint counts the webhook attempt next to the Temporal SDK's own metrics.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import type { ConfirmedDeposit } from '../../domain/session/deposit';
import { depositConfirmedSignal } from '../../workflows/messages';
import { freePort } from '../../toolchain/ports';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/serviceProcess';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

describe('process logs and worker metrics through a whole flow', () => {
  let db: TestDatabase;
  let merchant: TestMerchant;
  let receiver: WebhookReceiver;
  let api: ServiceProcess | undefined;
  let worker: ServiceProcess | undefined;
  let webhookWorker: ServiceProcess | undefined;
  let signer: ServiceProcess | undefined;
  let baseUrl = '';
  let metricsPort = 0;
  let webhookMetricsPort = 0;
  const dbPassword = `pw${randomBytes(12).toString('hex')}`;
  const sessionTokenSecret = randomBytes(32).toString('hex');
  const totpEncryptionKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    [db, receiver] = await Promise.all([createTestDatabase(), startWebhookReceiver()]);
    merchant = await createTestMerchant(db.sql);
    // A role of its own, so the password searched for in the logs is one nothing else contains.
    const role = `ops_${randomBytes(4).toString('hex')}`;
    await db.sql.unsafe(`create role ${role} login superuser password '${dbPassword}'`);
    const roleUrl = new URL(db.url);
    roleUrl.username = role;
    roleUrl.password = dbPassword;
    const env = {
      APP_ENV: 'test',
      LOG_LEVEL: 'debug',
      DATABASE_URL: roleUrl.toString(),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `ops-${randomBytes(4).toString('hex')}`,
      SESSION_TOKEN_SECRET: sessionTokenSecret,
      TOTP_ENCRYPTION_KEY: totpEncryptionKey,
    };
    const [apiPort, workerMetricsPort, webhookWorkerMetricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
    baseUrl = `http://127.0.0.1:${apiPort}`;
    metricsPort = workerMetricsPort;
    webhookMetricsPort = webhookWorkerMetricsPort;
    // The API offers a chain only where an indexer watches it: this test stands in for one, so no node answers there.
    const indexed = { RPC_URLS_BASE_TESTNET: 'http://127.0.0.1:9', RPC_URLS_SOLANA_TESTNET: 'http://127.0.0.1:9' };
    api = startServiceProcess('bin/api.ts', { ...env, ...indexed, PORT: String(apiPort) });
    worker = startServiceProcess('bin/worker.ts', { ...env, WORKER_METRICS_PORT: String(metricsPort) });
    webhookWorker = startServiceProcess('bin/webhookWorker.ts', { ...env, WORKER_METRICS_PORT: String(webhookMetricsPort) });
    // The flow's session is a test one: the test signer derives its Solana address.
    signer = startServiceProcess('bin/signer.ts', { ...env, SIGNER_MODE: 'test', DEPOSIT_MNEMONIC_TEST: MNEMONIC });
    await Promise.all([
      signer.waitForLine((line) => line.includes('"signer running"'), 120_000),
      api.waitForLine((line) => line.includes('"api listening"')),
      worker.waitForLine((line) => line.includes('"worker running"'), 120_000),
      webhookWorker.waitForLine((line) => line.includes('"webhook worker running"'), 120_000),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled([
      api?.stop('SIGKILL'),
      worker?.stop('SIGKILL'),
      webhookWorker?.stop('SIGKILL'),
      signer?.stop('SIGKILL'),
      receiver?.close(),
    ]);
    await db?.drop();
  });

  test('a deposit confirmation no indexer recorded credits nothing and raises the alert counter', async () => {
    if (!api || !worker) throw new Error('processes did not start');
    const created = await call(baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { webhook_url: receiver.url }),
    });
    const sessionId = created.body.data?.session_id as string;
    const selected = await call(baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: merchant.testKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(selected.status, JSON.stringify(selected.body)).toBe(200);
    // What anyone reaching Temporal could send: a confirmation of a deposit that never happened.
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const forged: ConfirmedDeposit = {
        chain: 'base',
        token: 'USDC',
        txHash: `0x${randomBytes(32).toString('hex')}`,
        logIndex: 0,
        amount: '19990000',
        toAddress: selected.body.data?.deposit_address as string,
        fromAddress: `0x${randomBytes(20).toString('hex')}`,
        blockNumber: '1',
        blockHash: `0x${randomBytes(32).toString('hex')}`,
        confirmations: 64,
      };
      await new Client({ connection }).workflow.getHandle(sessionId).signal(depositConfirmedSignal, forged);
    } finally {
      await connection.close();
    }
    await vi.waitFor(
      async () =>
        expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toMatch(
          /^checkout_unverified_deposit_confirmations\{[^}]*chain="base"[^}]*\} 1$/m,
        ),
      { timeout: 15_000, interval: 250 },
    );
    const session = await call(baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
    expect(session.body.data?.status).toBe('awaiting_payment');
    const [payment] = await db.sql<
      { received: string }[]
    >`select received_base_units::text as received from payments where session_id = ${sessionId}`;
    expect(payment?.received).toBe('0');
  });

  test('JSON lines with request and workflow ids, no secrets, webhook attempts counted', async () => {
    if (!api || !worker || !webhookWorker || !signer) throw new Error('processes did not start');
    const created = await call(baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { webhook_url: receiver.url }),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    const sessionToken = new URL(created.body.data?.checkout_url_with_token as string).searchParams.get('token') ?? '';
    expect(sessionToken.length).toBeGreaterThan(10);

    for (const chain of ['solana', 'base']) {
      const selected = await call(baseUrl, 'POST', '/checkout/sessions/select-payment', {
        headers: { 'x-service-user-type': 'checkout', authorization: `Bearer ${sessionToken}` },
        body: { session_id: sessionId, token: 'USDC', chain },
      });
      expect(selected.status, JSON.stringify(selected.body)).toBe(200);
    }
    const simulated = await call(baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, {
      apiKey: merchant.testKey,
      body: { status: 'completed' },
    });
    expect(simulated.status, JSON.stringify(simulated.body)).toBe(200);
    await vi.waitFor(() => expect(receiver.received.some((w) => w.rawBody.includes('completed'))).toBe(true), {
      timeout: 30_000,
      interval: 100,
    });
    const [webhookSecret] = await db.sql<
      { webhook_secret_test: string }[]
    >`select webhook_secret_test from merchants where id = ${merchant.merchant.id}`;

    const metrics = await vi.waitFor(
      async () => {
        // Attempts run in the webhook worker process, on their own task queue.
        const text = await (await fetch(`http://127.0.0.1:${webhookMetricsPort}/metrics`)).text();
        expect(text).toMatch(/^checkout_webhook_attempts\{[^}]*outcome="delivered"[^}]*\} [1-9]/m);
        return text;
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(metrics).toMatch(/^temporal_worker_task_slots_available\{/m);
    expect(metrics).not.toMatch(/^checkout_webhook_failures\{/m);

    expect(await worker.stop('SIGTERM')).toBe(0);
    expect(await webhookWorker.stop('SIGTERM')).toBe(0);
    expect(await api.stop('SIGTERM')).toBe(0);
    expect(await signer.stop('SIGTERM')).toBe(0);

    const apiLines = api.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const workerLines = worker.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = apiLines.filter((line) => line.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const line of requests) expect(line.requestId).toMatch(/\S/);
    const webhookLines = webhookWorker.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const attempts = webhookLines.filter((line) => line.msg === 'webhook attempt');
    expect(attempts.length).toBeGreaterThan(0);
    expect(workerLines.filter((line) => line.msg === 'webhook attempt')).toEqual([]);
    for (const line of attempts) {
      expect(line).toMatchObject({ outcome: 'delivered', activityType: 'deliverWebhook', taskQueue: expect.stringMatching(/-webhooks$/) });
      expect(line.workflowId).toMatch(/^wh_/);
    }

    const signerLines = signer.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(signerLines).toContainEqual(
      expect.objectContaining({ msg: 'signer running', mode: 'test', taskQueue: expect.stringMatching(/-signer-test$/), seed: true }),
    );
    const everything = [...api.lines, ...worker.lines, ...webhookWorker.lines, ...signer.lines].join('\n');
    const payloads = await historyPayloads([sessionId, ...new Set(attempts.map((line) => line.workflowId as string))]);
    // Decoded: the session's record and each delivery's input are there to search.
    expect(payloads).toContain(receiver.url);
    expect(payloads).toContain(attempts[0]!.workflowId as string);
    const secrets = {
      apiKey: merchant.testKey,
      sessionToken,
      webhookSecret: webhookSecret?.webhook_secret_test ?? '',
      dbPassword,
      sessionTokenSecret,
      totpEncryptionKey,
      mnemonic: MNEMONIC,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      expect(everything.includes(secret), `${name} appears in the logs`).toBe(false);
      expect(payloads.includes(secret), `${name} appears in a Temporal payload`).toBe(false);
    }
  });
});

/**
 * Every payload (inputs, results, signals, updates, memos, failures) in the histories of these workflows and of the
 * child workflows they started, decoded as text: what anyone reading Temporal's database or Web UI sees.
 */
async function historyPayloads(workflowIds: string[]): Promise<string> {
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  try {
    const client = new Client({ connection });
    const texts: string[] = [];
    const collect = (value: unknown): void => {
      if (value instanceof Uint8Array) texts.push(Buffer.from(value).toString('utf8'));
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    const seen = new Set<string>();
    const queue = [...workflowIds];
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (seen.has(id)) continue;
      seen.add(id);
      const history = await client.workflow.getHandle(id).fetchHistory();
      for (const event of history.events ?? []) {
        collect(event);
        const child = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
        if (child) queue.push(child);
      }
    }
    return texts.join('\n');
  } finally {
    await connection.close();
  }
}
