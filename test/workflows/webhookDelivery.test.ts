// Durable webhook delivery on the time-skipping test server: days of receiver outage pass in seconds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedelivery } from '../../api/webhookRedelivery';
import { rotateWebhookSecret } from '../../db/repositories/merchants';
import { webhookTaskQueue } from '../../domain/taskQueues';
import { verifyWebhookSignature } from '../../domain/webhooks/webhookSignature';
import type { webhookDelivery } from '../../workflows/webhookDelivery';
import { simulateUpdate } from '../../workflows/messages';
import { createWorkflowHarness, finishedDeliveries, type WorkflowHarness } from '../support/workflowHarness';

let h: WorkflowHarness;
beforeAll(async () => {
  h = await createWorkflowHarness();
});
beforeEach(() => h.freshEnvironment());
afterAll(() => h?.teardown());

const DAY_MS = 24 * 60 * 60 * 1000;

async function attempts(deliveryId: string) {
  return h.db.sql<{ attempt: number; status_code: number | null }[]>`
    select attempt, status_code from webhook_attempts where delivery_id = ${deliveryId} order by attempt`;
}

describe('webhook delivery', () => {
  it('keeps retrying through a two-day outage and then delivers exactly once more, with the same idempotency key', async () => {
    const record = await h.record();
    const outageEnds = (await h.env.currentTimeMs()) + 2 * DAY_MS;
    // Workflow time: what the server's retry timers follow (activities themselves see the wall clock).
    const serverTimes: number[] = [];
    h.receiver.respondWith(async () => {
      const now = await h.env.currentTimeMs();
      serverTimes.push(now);
      return now < outageEnds ? 500 : 200;
    });
    try {
      await h.withWorker(async () => {
        const handle = await h.start(record);
        await handle.executeUpdate(simulateUpdate, { args: [{ status: 'failed' }] });
        const [delivery] = await finishedDeliveries(h, record.sessionId, 1);
        expect(delivery?.result).toBe('delivered');

        const requests = h.receiver.received.filter((r) => r.headers['x-service-idempotency-key'] === delivery!.id);
        const successes = requests.filter((r) => r.answeredWith === 200);
        expect(successes).toHaveLength(1);
        expect(requests.at(-1)?.answeredWith).toBe(200);
        expect(new Set(requests.map((r) => r.headers['x-service-idempotency-key']))).toEqual(new Set([delivery!.id]));
        // Retries re-sign the same bytes with a fresh timestamp.
        expect(new Set(requests.map((r) => r.rawBody)).size).toBe(1);

        const recorded = await attempts(delivery!.id);
        expect(recorded.map((a) => a.attempt)).toEqual(requests.map((_, i) => i + 1));
        expect(recorded.map((a) => a.status_code)).toEqual(requests.map((r) => r.answeredWith));
        expect(serverTimes.at(-1)! - serverTimes[0]!).toBeGreaterThanOrEqual(2 * DAY_MS);
        expect(serverTimes.at(-1)! - serverTimes.at(-2)!).toBeLessThanOrEqual(60 * 60 * 1000 + 60_000);
        // Backoff from ten seconds doubling to an hour: about 57 attempts cover two days.
        expect(requests.length).toBeGreaterThan(45);
        expect(requests.length).toBeLessThan(60);
        const [row] = await h.db.sql`select state from webhook_deliveries where id = ${delivery!.id}`;
        expect(row?.state).toBe('delivered');
      });
    } finally {
      h.receiver.respondWith(() => 200);
    }
  });

  it('gives up after three days and marks the delivery failed', async () => {
    const record = await h.record();
    const serverTimes: number[] = [];
    h.receiver.respondWith(async () => {
      serverTimes.push(await h.env.currentTimeMs());
      return 503;
    });
    try {
      await h.withWorker(async () => {
        const handle = await h.start(record);
        await handle.executeUpdate(simulateUpdate, { args: [{ status: 'failed' }] });
        const [delivery] = await finishedDeliveries(h, record.sessionId, 1);
        expect(delivery?.result).toBe('failed');
        const recorded = await attempts(delivery!.id);
        expect(recorded.every((a) => a.status_code === 503)).toBe(true);
        expect(recorded).toHaveLength(serverTimes.length);
        const span = serverTimes.at(-1)! - serverTimes[0]!;
        expect(span).toBeGreaterThan(3 * DAY_MS - 2 * 60 * 60 * 1000);
        expect(span).toBeLessThanOrEqual(3 * DAY_MS);
        const [row] = await h.db.sql`select state from webhook_deliveries where id = ${delivery!.id}`;
        expect(row?.state).toBe('failed');
      });
    } finally {
      h.receiver.respondWith(() => 200);
    }
  });

  it('runs deliveries on the webhook queue, never on the session queue', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      const sessionQueue = (await handle.describe()).taskQueue;
      await handle.executeUpdate(simulateUpdate, { args: [{ status: 'failed' }] });
      const [delivery] = await finishedDeliveries(h, record.sessionId, 1);
      expect(delivery?.result).toBe('delivered');
      expect((await h.env.client.workflow.getHandle(delivery!.id).describe()).taskQueue).toBe(`${sessionQueue}-webhooks`);
    });
  });

  it('redelivers on request with the same idempotency key, numbering attempts on from the first delivery', async () => {
    const record = await h.record();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.executeUpdate(simulateUpdate, { args: [{ status: 'failed' }] });
      const [delivery] = await finishedDeliveries(h, record.sessionId, 1);
      const sessionQueue = (await handle.describe()).taskQueue;
      const { workflowId } = await startRedelivery(h.env.client, sessionQueue, delivery!.id);
      const redelivery = h.env.client.workflow.getHandle<typeof webhookDelivery>(workflowId);
      expect(await redelivery.result()).toBe('delivered');
      expect((await redelivery.describe()).taskQueue).toBe(`${sessionQueue}-webhooks`);
      const requests = h.receiver.received.filter((r) => r.headers['x-service-idempotency-key'] === delivery!.id);
      expect(requests).toHaveLength(2);
      expect(requests[1]!.rawBody).toBe(requests[0]!.rawBody);
      expect((await attempts(delivery!.id)).map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 200],
        [2, 200],
      ]);
      const [secret] = await h.db.sql<
        { webhook_secret_test: string }[]
      >`select webhook_secret_test from merchants where id = ${record.merchantId}`;
      for (const request of requests) {
        expect(
          verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret!.webhook_secret_test),
        ).toMatchObject({ valid: true });
      }
    });
  });

  it('while a secret is rotated out, deliveries are signed with the old and the new one; without an overlap, with the new one only', async () => {
    const record = await h.record();
    const secretOf = async () =>
      (await h.db.sql<{ webhook_secret_test: string }[]>`select webhook_secret_test from merchants where id = ${record.merchantId}`)[0]!
        .webhook_secret_test;
    const original = await secretOf();
    await rotateWebhookSecret(h.db.sql, record.merchantId, 'test', `whsec_${'a'.repeat(64)}`, new Date(Date.now() + 3_600_000));
    const rotated = await secretOf();
    await h.withWorker(async () => {
      const handle = await h.start(record);
      await handle.executeUpdate(simulateUpdate, { args: [{ status: 'failed' }] });
      const [delivery] = await finishedDeliveries(h, record.sessionId, 1);
      const [during] = h.receiver.received.filter((r) => r.headers['x-service-idempotency-key'] === delivery!.id);
      const header = during!.headers['x-service-signature'] as string;
      expect(header.match(/v1=/g)).toHaveLength(2);
      for (const secret of [original, rotated])
        expect(verifyWebhookSignature(during!.rawBody, header, secret)).toMatchObject({ valid: true });

      // A leaked secret is rotated without an overlap: the next delivery no longer verifies with it.
      await rotateWebhookSecret(h.db.sql, record.merchantId, 'test', `whsec_${'b'.repeat(64)}`, null);
      await h.env.client.workflow.execute<typeof webhookDelivery>('webhookDelivery', {
        workflowId: `${delivery!.id}-redeliver-1`,
        taskQueue: webhookTaskQueue((await handle.describe()).taskQueue),
        args: [{ deliveryId: delivery!.id }],
      });
      const after = h.receiver.received.filter((r) => r.headers['x-service-idempotency-key'] === delivery!.id)[1]!;
      const single = after.headers['x-service-signature'] as string;
      expect(single.match(/v1=/g)).toHaveLength(1);
      expect(verifyWebhookSignature(after.rawBody, single, await secretOf())).toMatchObject({ valid: true });
      expect(verifyWebhookSignature(after.rawBody, single, rotated)).toMatchObject({ valid: false });
    });
  });
});
