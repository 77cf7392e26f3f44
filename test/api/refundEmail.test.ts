// A merchant's refund with the customer's e-mail address on the real stack configured with SMTP_URL: the API itself
// e-mails the customer the refund's claim link, the one it answered, through a real SMTP server, before it answers;
// a replay sends nothing more, and a refusing server fails nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefundObject } from '../../domain/wire/refund';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

const REFUSED = 'refused@example.com';

let service: TestService;
let smtp: TestSmtpServer;
let merchant: TestMerchant;

beforeAll(async () => {
  smtp = await startSmtpServer({ refuseRecipients: (address) => address === REFUSED });
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

const newKey = () => `email-${Date.now()}-${Math.random()}`;

const createRefund = (sessionId: string, body: unknown, key = newKey()) =>
  call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/refunds`, {
    headers: { 'x-service-user-type': 'checkout', 'x-api-key': merchant.testKey, 'Idempotency-Key': key },
    body,
  });

async function claimEmailed(refundId: string): Promise<boolean> {
  const [row] = await service.db.sql<{ emailed: boolean }[]>`
    select claim_emailed_at is not null as emailed from refunds where id = ${refundId}`;
  return row!.emailed;
}

describe('refund e-mail through the API', () => {
  it("e-mails the customer the refund's claim link once, as it creates the refund, and not again on a replay", async () => {
    const sessionId = await paidSession();
    const key = newKey();
    const body = { amount_usd: 12.5, customer_email: 'Customer@Example.com' };
    const response = await createRefund(sessionId, body, key);
    expect(response.status).toBe(201);
    const refund = RefundObject.parse(response.body.data);
    const sent = smtp.received.filter((m) => m.to.includes('customer@example.com'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: 'refunds@checkout.test', to: ['customer@example.com'] });
    expect(sent[0]!.headers).toContain('Subject: A refund of $12.50 is waiting for you');
    expect(sent[0]!.text).toContain(refund.claim_url);
    expect(sent[0]!.text).toContain('from Alice');
    // Stamped in the transaction that sent it, before the API answered.
    expect(await claimEmailed(refund.id)).toBe(true);

    const replay = await createRefund(sessionId, body, key);
    expect(replay).toMatchObject({ status: 201, body: { data: { id: refund.id } } });
    // The stored response forgotten, the refund's own key finds it: still nothing more is sent.
    await service.db.sql`delete from idempotency_keys where idempotency_key = ${key}`;
    const resumed = await createRefund(sessionId, body, key);
    expect(resumed).toMatchObject({ status: 200, body: { data: { id: refund.id } } });
    expect(smtp.received.filter((m) => m.to.includes('customer@example.com'))).toHaveLength(1);
  });

  it('sends the claim e-mail on the retry of a create that died before it', async () => {
    const sessionId = await paidSession();
    const key = newKey();
    const first = RefundObject.parse((await createRefund(sessionId, { amount_usd: 2, customer_email: 'late@example.com' }, key)).body.data);
    // As if the first request had died after its commit, before the e-mail and its stored response.
    await service.db.sql`update refunds set claim_emailed_at = null where id = ${first.id}`;
    await service.db.sql`delete from idempotency_keys where idempotency_key = ${key}`;
    smtp.received.length = 0;
    const retry = await createRefund(sessionId, { amount_usd: 2, customer_email: 'late@example.com' }, key);
    expect(retry.status).toBe(200);
    expect(smtp.received.map((m) => m.to)).toEqual([['late@example.com']]);
    expect(smtp.received[0]!.text).toContain(first.claim_url);
    expect(await claimEmailed(first.id)).toBe(true);
  });

  it('answers 201 with the claim link when the SMTP server refuses the address, and leaves the e-mail unsent', async () => {
    const response = await createRefund(await paidSession(), { amount_usd: 3, customer_email: REFUSED });
    expect(response.status).toBe(201);
    const refund = RefundObject.parse(response.body.data);
    expect(refund).toMatchObject({ status: 'pending_claim', customer_email: REFUSED, claim_url: expect.stringContaining('/refunds/') });
    expect(smtp.received.filter((m) => m.to.includes(REFUSED))).toEqual([]);
    expect(await claimEmailed(refund.id)).toBe(false);
  });
});
