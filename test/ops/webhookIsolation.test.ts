// With 200 deliveries stuck on a trickling receiver and 200 on a blackholed one, all from
// one merchant, select-payment still answers in its usual time and another merchant's paid session still
// completes and is announced. Webhook attempts run on their own queue and worker, and one merchant holds at
// most WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT of its slots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSessionRecord } from '../../db/repositories/sessions';
import type { DepositObservation } from '../../domain/session/deposit';
import { newWebhookDeliveryId } from '../../domain/wire/ids';
import { webhookTaskQueue } from '../../domain/taskQueues';
import { depositConfirmedSignal, WEBHOOK_DELIVERY_WORKFLOW } from '../../workflows/messages';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { sessionRecord } from '../support/sessionRecords';
import { startTestService, type TestService } from '../support/service';
import { startBlackholeReceiver, startTricklingReceiver, type SlowReceiver } from '../support/slowReceivers';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { indexerRecords } from '../support/workflowHarness';

const STUCK_PER_RECEIVER = 200;
const PER_MERCHANT = 5;

let service: TestService;
let trickling: SlowReceiver;
let blackhole: SlowReceiver;
let healthy: WebhookReceiver;
let quiet: TestMerchant;
const stuck: string[] = [];

beforeAll(async () => {
  [service, trickling, blackhole, healthy] = await Promise.all([
    startTestService({
      env: {
        // Long enough that no stuck attempt ends during the test: only isolation can keep payments moving.
        WEBHOOK_TIMEOUT_MS: '60000',
        WEBHOOK_MAX_CONCURRENT_DELIVERIES: '20',
        WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: String(PER_MERCHANT),
      },
    }),
    startTricklingReceiver(500),
    startBlackholeReceiver(),
    startWebhookReceiver(),
  ]);
  quiet = await createTestMerchant(service.db.sql, { name: 'Quiet', supportedTokens: { USDC: ['base'] } });
});

afterAll(async () => {
  await Promise.all(
    stuck.map((id) =>
      service.temporal.workflow
        .getHandle(id)
        .terminate('test finished')
        .catch(() => undefined),
    ),
  );
  await service?.stop();
  await Promise.all([trickling, blackhole, healthy].map((receiver) => receiver?.close()));
});

/** One merchant's 400 deliveries, each to a receiver that will never answer. */
async function floodOfStuckDeliveries(): Promise<void> {
  const noisy = await createTestMerchant(service.db.sql, { name: 'Noisy' });
  const record = sessionRecord(noisy.merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(service.db.sql, record, 'cancelled');
  const rows = Array.from({ length: 2 * STUCK_PER_RECEIVER }, (_, i) => ({
    id: newWebhookDeliveryId(),
    session_id: record.sessionId,
    event: 'payment.cancelled',
    status_version: i + 1,
    url: i % 2 === 0 ? trickling.url : blackhole.url,
    body: '{}',
  }));
  await service.db.sql`insert into webhook_deliveries ${service.db.sql(rows)}`;
  for (const { id } of rows) {
    await service.temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
      workflowId: id,
      taskQueue: webhookTaskQueue(service.config.temporal.taskQueue),
      args: [{ deliveryId: id }],
    });
    stuck.push(id);
  }
}

/** Creates a session of the quiet merchant and times its select-payment. */
async function timedSelectPayment(): Promise<{ sessionId: string; ms: number; status: number; data: Record<string, string> }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: quiet.testKey,
    body: sessionRequest(quiet.merchant.id, { webhook_url: healthy.url }),
  });
  const sessionId = created.body.data?.session_id as string;
  const started = performance.now();
  const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
    apiKey: quiet.testKey,
    body: { session_id: sessionId, token: 'USDC', chain: 'base' },
  });
  return { sessionId, ms: performance.now() - started, status: selected.status, data: selected.body.data as Record<string, string> };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('webhook isolation', () => {
  it('keeps payments moving while 400 deliveries hang on a trickling and a blackholed receiver', async () => {
    const before: number[] = [];
    for (let i = 0; i < 3; i++) before.push((await timedSelectPayment()).ms);

    await floodOfStuckDeliveries();
    // The noisy merchant's attempts are under way: its cap's worth of connections held open.
    await expect.poll(() => trickling.open() + blackhole.open(), { timeout: 30_000, interval: 100 }).toBe(PER_MERCHANT);

    const during = [];
    for (let i = 0; i < 3; i++) during.push(await timedSelectPayment());
    expect(during.map((d) => d.status)).toEqual([200, 200, 200]);
    // Side by side on the same machine: stuck webhooks cost select-payment nothing beyond noise.
    expect(median(during.map((d) => d.ms))).toBeLessThan(3 * median(before) + 1_500);

    // A paid session of the quiet merchant completes and its webhook is delivered, while the flood still hangs.
    const paying = during[0]!;
    const paid: DepositObservation = {
      chain: 'base',
      txHash: `0x${'ab'.repeat(32)}`,
      logIndex: 0,
      token: 'USDC',
      amount: paying.data.amount_base_units!,
      toAddress: paying.data.deposit_address!,
      fromAddress: '0x000000000000000000000000000000000000dEaD',
      blockNumber: '100',
      blockHash: `0x${'cd'.repeat(32)}`,
    };
    await indexerRecords(service.db.sql, paying.sessionId, paid, { confirmations: 64 });
    await service.temporal.workflow.getHandle(paying.sessionId).signal(depositConfirmedSignal, { ...paid, confirmations: 64 });
    await expect
      .poll(
        () =>
          healthy.received
            .map((w) => JSON.parse(w.rawBody) as { event: string; session_id: string })
            .find((w) => w.session_id === paying.sessionId && w.event === 'payment.completed'),
        {
          timeout: 30_000,
          interval: 100,
        },
      )
      .toBeTruthy();
    // The noisy merchant never held more than its cap of the webhook worker's slots.
    expect(trickling.open() + blackhole.open()).toBe(PER_MERCHANT);
    expect(Math.max(trickling.peak(), blackhole.peak())).toBeLessThanOrEqual(PER_MERCHANT);
  }, 180_000);
});
