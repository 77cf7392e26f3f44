// A merchant's refund with the customer's e-mail address on the real stack configured with SMTP_URL: the worker
// e-mails the customer the refund's own claim link, the one the API answered, through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefundObject } from '../../domain/wire/refund';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

let service: TestService;
let smtp: TestSmtpServer;
let merchant: TestMerchant;

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Refunds <refunds@checkout.test>' } });
  merchant = await createTestMerchant(service.db.sql, { name: 'Alice' });
});
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
});

async function paidSession(): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  const sessionId = created.body.data?.session_id as string;
  const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, {
    apiKey: merchant.testKey,
    body: { status: 'completed' },
  });
  expect(simulated.status).toBe(200);
  return sessionId;
}

const createRefund = (sessionId: string, body: unknown) =>
  call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/refunds`, {
    headers: {
      'x-service-user-type': 'checkout',
      'x-api-key': merchant.testKey,
      'Idempotency-Key': `email-${Date.now()}-${Math.random()}`,
    },
    body,
  });

async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('refund e-mail through the API', () => {
  it("e-mails the customer the refund's claim link once", async () => {
    const response = await createRefund(await paidSession(), { amount_usd: 12.5, customer_email: 'Customer@Example.com' });
    expect(response.status).toBe(201);
    const refund = RefundObject.parse(response.body.data);
    // Stamped once the server took it, in the transaction that sent it.
    await until('the claim e-mail', async () => {
      const [row] = await service.db.sql<{ emailed: boolean }[]>`
        select claim_emailed_at is not null as emailed from refunds where id = ${refund.id}`;
      return row?.emailed === true;
    });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'refunds@checkout.test', to: ['customer@example.com'] });
    expect(smtp.received[0]!.headers).toContain('Subject: A refund of $12.50 is waiting for you');
    expect(smtp.received[0]!.text).toContain(refund.claim_url);
  });
});
