// Session workflows on the Java time-skipping test server, with real activities writing to a real
// Postgres database and delivering webhooks over real HTTP to a loopback receiver.
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { inject } from 'vitest';
import type { ActivityDeps } from '../../activities';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { loadChainsConfig } from '../../config/chains';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { createWorker } from '../../worker/createWorker';
import { createWebhookWorker } from '../../worker/createWebhookWorker';
import { createSignerWorkers } from '../../signer/worker';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { depositSeeds } from '../../domain/addresses/depositSeed';
import type { SignerDeps } from '../../signer/activities';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { WebhookDeps } from '../../activities/webhooks/webhookActivities';
import type { checkoutSession } from '../../workflows/checkoutSession';
import { createSql, type Sql } from '../../db/client';
import type { DepositObservation } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode, SessionRecord } from '../../domain/wire/session';
import { markConfirmed, upsertDeposits } from '../../indexers/core/depositStore';
import type { SessionSnapshot } from '../../domain/session/sessionState';
import { getStateQuery } from '../../workflows/messages';
import { createTestDatabase, type TestDatabase } from './database';
import { createTestMerchant, type TestMerchant } from './factories';
import { sessionRecord } from './sessionRecords';
import { createTimeSkippingEnvironment } from './timeSkipping';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver';

export interface WorkflowHarness {
  /** The current test's own time-skipping server (see `freshEnvironment`). */
  readonly env: TestWorkflowEnvironment;
  /**
   * Replaces the time-skipping server. Call before each test: a server shared across tests lets one
   * test's open timers and pending child starts hold back another test's clock. The next test's server starts
   * while this one's test runs, so a test waits for no server's start but the file's first.
   */
  freshEnvironment(): Promise<void>;
  db: TestDatabase;
  merchant: TestMerchant;
  receiver: WebhookReceiver;
  /**
   * Runs the session worker, the webhook worker and the signer worker on fresh queues while `fn` runs (`start`
   * uses them). The signer holds the development seed; the session worker its xpubs, unless overridden. `signer:
   * false` runs no signer, as when its process is down.
   */
  withWorker<T>(
    fn: () => Promise<T>,
    activityOverrides?: Partial<ActivityDeps>,
    deliveryOverrides?: Partial<WebhookDeps>,
    signer?: Partial<SignerDeps> | false,
  ): Promise<T>;
  /** A session record on the test server's clock, its webhooks pointed at the receiver. */
  record(overrides?: Partial<SessionRecord> & { lifetimeMinutes?: number }): Promise<SessionRecord>;
  start(record: SessionRecord): Promise<WorkflowHandle<typeof checkoutSession>>;
  /** The session worker's queue while `withWorker` runs: workflows started on it run there, and its signers' queues derive from it. */
  readonly taskQueue: string;
  teardown(): Promise<void>;
}

export async function createWorkflowHarness(): Promise<WorkflowHarness> {
  let env: TestWorkflowEnvironment | undefined;
  let next: Promise<TestWorkflowEnvironment> | undefined;
  const [db, receiver] = await Promise.all([createTestDatabase(), startWebhookReceiver()]);
  const current = (): TestWorkflowEnvironment => {
    if (!env) throw new Error('call freshEnvironment() first');
    return env;
  };
  const merchant = await createTestMerchant(db.sql);
  // Activities run as their process's least-privilege role, as in production: the session worker's as the worker's,
  // the webhook attempts as the webhook worker's. A test handing the signer a database gives it the signer's.
  const workerSql = createSql(db.urlAs('checkout_worker'), { max: 5 });
  const webhooksSql = createSql(db.urlAs('checkout_webhooks'), { max: 5 });
  const signerSql = createSql(db.urlAs('checkout_signer'), { max: 2 });
  let taskQueue = '';
  let started: string[] = [];
  const baseSignerDeps: SignerDeps = { depositSeeds: depositSeeds({ test: undefined, live: undefined }), addressPool: signerSql };
  const baseDeps: ActivityDeps = {
    sql: workerSql,
    paymentNetwork: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig({}))),
    depositXpubs: depositXpubsFromSeeds(baseSignerDeps.depositSeeds),
    liveTokenPrices: {},
  };
  const baseDeliveryDeps: WebhookDeps = {
    sql: webhooksSql,
    timeoutMs: 5_000,
    targets: { appEnv: 'test', allowedPrivateTargets: [] },
    maxInFlightPerMerchant: 10,
  };
  return {
    get env() {
      return current();
    },
    get taskQueue() {
      return taskQueue;
    },
    async freshEnvironment() {
      await env?.teardown();
      env = await (next ?? createTimeSkippingEnvironment());
      next = createTimeSkippingEnvironment();
      // A start that fails is the next test's failure, when it awaits it; until then it is nobody's.
      next.catch(() => undefined);
    },
    db,
    merchant,
    receiver,
    async withWorker(fn, activityOverrides = {}, deliveryOverrides = {}, signer = {}) {
      taskQueue = `lifecycle-${randomBytes(4).toString('hex')}`;
      started = [];
      const env = current();
      const worker = await createWorker({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue,
        activities: { ...baseDeps, ...activityOverrides },
        workflowBundle: { code: inject('workflowBundleCode') },
      });
      const webhookWorker = await createWebhookWorker({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        sessionTaskQueue: taskQueue,
        deliveries: { ...baseDeliveryDeps, ...deliveryOverrides },
        maxConcurrentDeliveries: 20,
        workflowBundle: { code: inject('workflowBundleCode') },
      });
      // Both modes' signers, as npm start runs them: a live session's signer work goes to the live one.
      const [testSigner, liveSigner] = signer
        ? await createSignerWorkers({
            connection: env.nativeConnection,
            namespace: env.namespace ?? 'default',
            sessionTaskQueue: taskQueue,
            signer: { ...baseSignerDeps, ...signer },
          })
        : [];
      const sessionWorkers = () => webhookWorker.runUntil(() => worker.runUntil(fn));
      try {
        return await (testSigner && liveSigner ? testSigner.runUntil(() => liveSigner.runUntil(sessionWorkers)) : sessionWorkers());
      } finally {
        // Workflows left open on a queue nobody polls would stall the test server's clock for later tests.
        // Sessions first, so none can start another delivery after the deliveries were listed.
        const terminate = (id: string) =>
          env.client.workflow
            .getHandle(id)
            .terminate('test finished')
            .catch(() => undefined);
        for (const id of started) await terminate(id);
        for (const id of started) await terminate(`settle_${paymentIdForSession(id)}`);
        const deliveries = await db.sql<
          { id: string }[]
        >`select id from webhook_deliveries where session_id in ${db.sql(started.length ? started : [''])}`;
        for (const { id } of deliveries) await terminate(id);
      }
    },
    async record(overrides = {}) {
      const { lifetimeMinutes = 60, ...rest } = overrides;
      const base = sessionRecord(merchant.merchant.id, { createdAt: new Date(await current().currentTimeMs()), lifetimeMinutes });
      return { ...base, webhookUrl: receiver.url, supportedTokens: { USDC: ['base', 'bsc'], USDT: ['base'] }, ...rest };
    },
    start(record) {
      started.push(record.sessionId);
      return current().client.workflow.start<typeof checkoutSession>('checkoutSession', {
        workflowId: record.sessionId,
        taskQueue,
        args: [record],
      });
    },
    async teardown() {
      await receiver.close();
      await Promise.allSettled([env?.teardown(), next?.then((unused) => unused.teardown())]);
      await Promise.all([workerSql.end({ timeout: 5 }), webhooksSql.end({ timeout: 5 }), signerSql.end({ timeout: 5 })]);
      await db.drop();
    },
  };
}

/** Polls the workflow's own state (queries do not move the test server's clock) until `until` holds. */
export async function waitForState(
  handle: WorkflowHandle,
  until: (state: SessionSnapshot) => boolean,
  timeoutMs = 15_000,
): Promise<SessionSnapshot> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await handle.query(getStateQuery);
    if (until(state)) return state;
    if (Date.now() > deadline) throw new Error(`state never matched; last status ${state.status}: ${JSON.stringify(state.transitions)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function deposit(overrides: { chain?: Chain; token?: TokenSymbol; amount: string; toAddress: string }): DepositObservation {
  return {
    chain: overrides.chain ?? 'base',
    token: overrides.token ?? 'USDC',
    txHash: `0x${randomBytes(32).toString('hex')}`,
    logIndex: 0,
    amount: overrides.amount,
    toAddress: overrides.toAddress,
    fromAddress: `0x${randomBytes(20).toString('hex')}`,
    blockNumber: '1000',
    blockHash: `0x${randomBytes(32).toString('hex')}`,
  };
}

/**
 * The indexer's side of a deposit, as it writes it before signalling: the row attributed to the session,
 * detected, and with `confirmations` confirmed. The workflow credits only what such a row backs.
 */
export async function indexerRecords(
  sql: Sql,
  sessionId: string,
  d: DepositObservation,
  options: { mode?: Mode; confirmations?: number } = {},
): Promise<void> {
  const key = { chain: d.chain, network: networkForMode(options.mode ?? 'test') };
  await upsertDeposits(sql, key, [{ ...d, sessionId, amount: BigInt(d.amount), blockNumber: BigInt(d.blockNumber) }]);
  if (options.confirmations !== undefined) await markConfirmed(sql, d, d.blockHash, options.confirmations);
}

/**
 * Waits until `expected` deliveries of the session's status exist (a refund's are counted apart: docs/refunds.md#webhooks)
 * and their delivery workflows finished, and returns them in order.
 */
export async function finishedDeliveries(
  h: WorkflowHarness,
  sessionId: string,
  expected: number,
): Promise<Array<{ id: string; event: string; result: string }>> {
  let deliveries: Array<{ id: string; event: string }> = [];
  const deadline = Date.now() + 15_000;
  while (deliveries.length < expected) {
    if (Date.now() > deadline) throw new Error(`expected ${expected} webhook deliveries for ${sessionId}, found ${deliveries.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    deliveries = await h.db.sql<Array<{ id: string; event: string }>>`
      select id, event from webhook_deliveries where session_id = ${sessionId} and refund_id is null order by status_version`;
  }
  const results = [];
  for (const delivery of deliveries) {
    const handle = h.env.client.workflow.getHandle(delivery.id);
    // The delivery row is written just before its child workflow starts.
    for (;;) {
      const started = await handle.describe().then(
        () => true,
        () => false,
      );
      if (started) break;
      if (Date.now() > deadline) throw new Error(`delivery workflow ${delivery.id} never started`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    results.push({ ...delivery, result: (await handle.result()) as string });
  }
  return results;
}
