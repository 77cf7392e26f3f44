// `kill -9` of the worker process while its settlement activity is under way, then of the webhook
// worker process while the session's payment.completed attempt waits on the receiver. Each is started again, and
// the session ends completed once, settled once, announced once, under one idempotency key. How soon is the
// bench's to measure (BENCH_ONLY=recovery); here the test's own time limit is the only clock: with the old
// five-minute settlement timeout and no heartbeat the session would not complete within it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/serviceProcess';
import { startTestService, type TestService } from '../support/service';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { simulateUpdate } from '../../workflows/messages';

const STARTUP_MS = 120_000;
const RECOVERY = { timeout: 120_000, interval: 200 };

let service: TestService;
let receiver: WebhookReceiver;
let merchant: TestMerchant;
const running = new Set<ServiceProcess>();

beforeAll(async () => {
  [service, receiver] = await Promise.all([startTestService({ worker: false }), startWebhookReceiver()]);
  merchant = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] } });
});

afterAll(async () => {
  await Promise.allSettled([...running].map((process) => process.stop('SIGKILL')));
  await receiver?.close();
  await service?.stop();
});

/** bin/worker.ts or bin/webhookWorker.ts on the service's task queue, under its own role, once it polls. */
async function startWorkerProcess(script: 'bin/worker.ts' | 'bin/webhookWorker.ts'): Promise<ServiceProcess> {
  const process = startServiceProcess(script, {
    APP_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: service.db.urlAs(script === 'bin/worker.ts' ? 'checkout_worker' : 'checkout_webhooks'),
    TEMPORAL_ADDRESS: service.config.temporal.address,
    TEMPORAL_TASK_QUEUE: service.config.temporal.taskQueue,
    // The held attempt must still be waiting when its worker is killed.
    WEBHOOK_TIMEOUT_MS: '60000',
  });
  running.add(process);
  await process.waitForLine(
    (line) => line.includes(script === 'bin/worker.ts' ? '"worker running"' : '"webhook worker running"'),
    STARTUP_MS,
  );
  return process;
}

/** A promise and the call that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

async function kill(process: ServiceProcess): Promise<void> {
  await process.stop('SIGKILL');
  running.delete(process);
}

describe('recovery after kill -9 of a worker process', () => {
  it(
    'completes a session whose worker died mid-settlement and whose webhook worker died mid-delivery, with nothing lost or doubled',
    { timeout: 240_000 },
    async () => {
      const [worker, webhookWorker] = await Promise.all([startWorkerProcess('bin/worker.ts'), startWorkerProcess('bin/webhookWorker.ts')]);
      const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
        apiKey: merchant.testKey,
        body: sessionRequest(merchant.merchant.id, { webhook_url: receiver.url }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const sessionId = created.body.data?.session_id as string;

      // The first payment.completed attempt is held unanswered: the webhook worker dies while it waits.
      let heldAttempts = 0;
      let heldKey: unknown;
      const firstAttemptArrived = signal();
      receiver.respondWith(async (delivery) => {
        if (delivery.headers['x-service-event'] !== 'payment.completed' || heldAttempts++ > 0) return 200;
        heldKey = delivery.headers['x-service-idempotency-key'];
        firstAttemptArrived.resolve();
        return new Promise<number>(() => undefined);
      });

      // The settlement's insert waits on a lock the test holds: the worker dies inside the activity.
      const lockTaken = signal();
      const releaseLock = signal();
      const holder = service.db.sql.begin(async (tx) => {
        await tx`lock table settlements in exclusive mode`;
        lockTaken.resolve();
        await releaseLock.promise;
      });
      await lockTaken.promise;
      const simulated = service.temporal.workflow.getHandle(sessionId).executeUpdate(simulateUpdate, { args: [{ status: 'completed' }] });
      await vi.waitFor(async () => {
        const [waiting] = await service.db.sql`
        select 1 from pg_stat_activity where pid <> pg_backend_pid() and wait_event_type = 'Lock' and query like '%insert into settlements%'`;
        expect(waiting).toBeDefined();
      }, RECOVERY);
      await kill(worker);
      await startWorkerProcess('bin/worker.ts');
      releaseLock.resolve();
      await holder;
      expect(await simulated).toMatchObject({ status: 'completed' });

      await firstAttemptArrived.promise;
      await kill(webhookWorker);
      await startWorkerProcess('bin/webhookWorker.ts');

      const [completedDelivery] = await vi.waitFor(async () => {
        const rows = await service.db.sql<{ id: string; state: string }[]>`
        select id, state from webhook_deliveries where session_id = ${sessionId} and event = 'payment.completed'`;
        expect(rows.map((row) => row.state)).toEqual(['delivered']);
        return rows;
      }, RECOVERY);

      const [session] = await service.db.sql<{ status: string }[]>`select status from sessions where id = ${sessionId}`;
      expect(session?.status).toBe('completed');
      const changes = await service.db.sql<
        { to_status: string }[]
      >`select to_status from session_status_changes where session_id = ${sessionId} order by id`;
      expect(changes.map((change) => change.to_status)).toEqual(['pending', 'completed']);
      const settlements = await service.db.sql<{ status: string }[]>`select status from settlements where session_id = ${sessionId}`;
      expect(settlements.map((settlement) => settlement.status)).toEqual(['settled']);
      const deliveries = await service.db.sql<
        { event: string }[]
      >`select event from webhook_deliveries where session_id = ${sessionId} order by event`;
      expect(deliveries.map((delivery) => delivery.event)).toEqual(['payment.completed']);

      // The cut-off attempt and its retry carry the one delivery id; only the retry was answered and recorded.
      const completedRequests = receiver.received.filter((request) => request.headers['x-service-event'] === 'payment.completed');
      expect(completedRequests.map((request) => request.headers['x-service-idempotency-key'])).toEqual([completedDelivery!.id]);
      expect(heldAttempts).toBe(2);
      expect(heldKey).toBe(completedDelivery!.id);
      const attempts = await service.db.sql<
        { status_code: number | null }[]
      >`select status_code from webhook_attempts where delivery_id = ${completedDelivery!.id}`;
      expect(attempts.map((attempt) => attempt.status_code)).toEqual([200]);
    },
  );
});
