// The worker's refund e-mail (docs/refunds.md#e-mail-to-the-customer) through a real SMTP server: a reminder with
// refund.expiring, with no claim link, sent by the refund workflow's activity on the time-skipping test server, once,
// and nothing with refund.created (the API sends the claim link) or without SMTP. A thirty-day claim window passes in
// seconds.
import { createServer, type AddressInfo } from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { smtpMailer, type Mailer } from '../../activities/email/smtpMailer';
import { createRefundWebhooks } from '../../activities/refunds/refundWebhooks';
import { createSql, type Sql } from '../../db/client';
import { insertRefund, moveRefund } from '../../db/repositories/refunds';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { newRefundId } from '../../domain/wire/ids';
import type { SessionRecord } from '../../domain/wire/session';
import type { refundWorkflow } from '../../workflows/refund';
import { refundCancelledSignal } from '../../workflows/refundMessages';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflowHarness';

let h: WorkflowHarness;
let smtp: TestSmtpServer;
let mailer: Mailer;
let workerSql: Sql;
beforeAll(async () => {
  [h, smtp] = await Promise.all([createWorkflowHarness(), startSmtpServer()]);
  mailer = smtpMailer({ smtpUrl: smtp.url, from: 'Refunds <refunds@pay.example>' });
  workerSql = createSql(h.db.urlAs('checkout_worker'), { max: 2 });
});
beforeEach(async () => {
  smtp.received.length = 0;
  await h.freshEnvironment();
});
afterAll(async () => {
  await workerSql?.end();
  await smtp?.close();
  await h?.teardown();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const CUSTOMER = 'customer@example.com';
const CREATED = 'refund.created' as const;
const EXPIRING = 'refund.expiring' as const;

async function closedSession(): Promise<SessionRecord> {
  const record = await h.record();
  await insertSessionRecord(h.db.sql, record, 'completed');
  return record;
}

/** A merchant's refund of $12.50 for a customer with an e-mail address, open for thirty days of the server's clock. */
async function refundWithEmail(record: SessionRecord, email: string | null = CUSTOMER) {
  const id = newRefundId();
  const now = await h.env.currentTimeMs();
  await insertRefund(h.db.sql, {
    id,
    mode: 'test',
    merchantId: record.merchantId,
    sessionId: record.sessionId,
    source: 'merchant',
    deposit: null,
    token: 'USDC',
    chain: 'solana',
    amountBaseUnits: 12_500_000n,
    amountUsdMicros: 12_500_000n,
    feePolicy: 'deducted',
    requireSenderProof: false,
    reason: null,
    idempotencyKey: `key-${id}`,
    expiresAt: new Date(now + 30 * DAY_MS),
    customerEmail: email ?? undefined,
  });
  return { id };
}

function start(refundId: string) {
  return h.env.client.workflow.start<typeof refundWorkflow>('refundWorkflow', {
    workflowId: refundWorkflowId(refundId),
    taskQueue: h.taskQueue,
    args: [{ refundId, mode: 'test' }],
  });
}

async function stamps(refundId: string) {
  const [row] = await h.db.sql<{ claim_emailed_at: Date | null; reminder_emailed_at: Date | null }[]>`
    select claim_emailed_at, reminder_emailed_at from refunds where id = ${refundId}`;
  return row!;
}

async function webhookOf(refundId: string, event: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!h.receiver.received.some((r) => r.headers['x-service-event'] === event && r.rawBody.includes(refundId))) {
    if (Date.now() > deadline) throw new Error(`no ${event} webhook of ${refundId}`);
    await h.env.sleep(1_000);
  }
}

describe('refund e-mails', () => {
  it('reminds the customer with refund.expiring, once, naming the merchant and no link; refund.created e-mails nothing', async () => {
    const record = await closedSession();
    const refund = await refundWithEmail(record);
    const [{ name: merchantName }] = await h.db.sql<[{ name: string }]>`select name from merchants where id = ${record.merchantId}`;
    await h.withWorker(
      async () => {
        expect(await (await start(refund.id)).result()).toBe('expired');
        await webhookOf(refund.id, 'refund.expiring');
      },
      { mailer },
      {},
      false,
    );
    expect(smtp.received.map((m) => ({ from: m.from, to: m.to }))).toEqual([{ from: 'refunds@pay.example', to: [CUSTOMER] }]);
    const [reminder] = smtp.received;
    expect(reminder!.headers).toMatch(/Subject: Reminder: your refund of \$12\.50 expires on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(reminder!.text).toContain(`Your refund of $12.50 from ${merchantName} has not been claimed yet.`);
    expect(reminder!.text).not.toMatch(/https?:|\/refunds\//);
    expect(await stamps(refund.id)).toEqual({ claim_emailed_at: null, reminder_emailed_at: expect.any(Date) });
  });

  it('sends nothing without SMTP, and the refund runs as ever', async () => {
    const refund = await refundWithEmail(await closedSession());
    await h.withWorker(
      async () => {
        const handle = await start(refund.id);
        await webhookOf(refund.id, 'refund.created');
        await moveRefund(h.db.sql, refund.id, 'cancel', { statusReason: 'customer kept the goods' });
        await handle.signal(refundCancelledSignal);
        expect(await handle.result()).toBe('cancelled');
      },
      {},
      {},
      false,
    );
    expect(smtp.received).toEqual([]);
    expect(await stamps(refund.id)).toEqual({ claim_emailed_at: null, reminder_emailed_at: null });
  });

  it('sends the reminder once however often its webhook is announced', async () => {
    const refund = await refundWithEmail(await closedSession());
    const { createRefundWebhookDelivery } = createRefundWebhooks({ sql: workerSql, mailer });
    const first = await new MockActivityEnvironment().run(createRefundWebhookDelivery, refund.id, EXPIRING);
    const again = await new MockActivityEnvironment({ attempt: 2 }).run(createRefundWebhookDelivery, refund.id, EXPIRING);
    expect(again).toBe(first);
    expect(smtp.received).toHaveLength(1);
  });

  it("e-mails nothing with refund.created: the claim link is the API's to send", async () => {
    const refund = await refundWithEmail(await closedSession());
    const { createRefundWebhookDelivery } = createRefundWebhooks({ sql: workerSql, mailer });
    await new MockActivityEnvironment().run(createRefundWebhookDelivery, refund.id, CREATED);
    expect(smtp.received).toEqual([]);
    expect(await stamps(refund.id)).toEqual({ claim_emailed_at: null, reminder_emailed_at: null });
  });

  it('e-mails nobody for a refund without an address', async () => {
    const refund = await refundWithEmail(await closedSession(), null);
    const { createRefundWebhookDelivery } = createRefundWebhooks({ sql: workerSql, mailer });
    await new MockActivityEnvironment().run(createRefundWebhookDelivery, refund.id, EXPIRING);
    expect(smtp.received).toEqual([]);
  });

  it('gives a silent SMTP server a deadline, so its webhook does not wait on it', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const { port } = silent.address() as AddressInfo;
    const slow = smtpMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'refunds@pay.example', deadlineMs: 300 });
    const started = Date.now();
    await expect(slow.send({ to: CUSTOMER, subject: 's', text: 't' })).rejects.toThrow(/^SMTP delivery failed \(/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('retries a refused reminder on the next attempts without naming the address, then lets the webhook go without it', async () => {
    const refund = await refundWithEmail(await closedSession());
    const refusingServer = await startSmtpServer({ refuseRecipients: true });
    onTestFinished(() => refusingServer.close());
    const refusing = smtpMailer({ smtpUrl: refusingServer.url, from: 'refunds@pay.example' });
    const { createRefundWebhookDelivery } = createRefundWebhooks({ sql: workerSql, mailer: refusing });
    const failure = await new MockActivityEnvironment({ attempt: 1 }).run(createRefundWebhookDelivery, refund.id, EXPIRING).then(
      () => undefined,
      (error: unknown) => error as Error & { type?: string },
    );
    expect(failure).toMatchObject({ type: 'RefundEmailNotSent', message: expect.stringContaining('SMTP delivery failed (EENVELOPE 550)') });
    expect(failure!.message).not.toContain(CUSTOMER);
    await expect(new MockActivityEnvironment({ attempt: 3 }).run(createRefundWebhookDelivery, refund.id, EXPIRING)).resolves.toMatch(
      /^wh_/,
    );
    expect(await stamps(refund.id)).toEqual({ claim_emailed_at: null, reminder_emailed_at: null });
  });
});
