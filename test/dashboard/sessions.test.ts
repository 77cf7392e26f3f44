// The Sessions pages in real Chromium against the real API, worker and Temporal: the filtered list (newest
// first) and its CSV export parsed back, the detail page's timeline and webhook log, Redeliver producing a
// new attempt, each deposit's verdict and what is owed back to the customer, and isolation: merchant A never sees merchant B's sessions, test never shows live data.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { listAuditEvents } from '../../db/repositories/auditEvents';
import { postCreditedDeposits, postRefundOnlyDeposit } from '../../db/repositories/depositLedger';
import { paymentIdForSession } from '../../domain/wire/ids';
import { listWebhookDeliveries } from '../../db/repositories/webhookHistory';
import { CSV_COLUMNS } from '../../api/dashboard/sessionsCsv';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { launchBrowser } from '../page/pageHarness';
import { createDashboardUser, DashboardClient } from './dashboardClient';
import { dashboardScreenshot, openDashboardTab, signInThroughPage, waitForView } from './dashboardBrowser';

let service: TestService;
let browser: Browser;
let webhooks: WebhookReceiver;
let shopA: TestMerchant;
let shopB: TestMerchant;
const ids: Record<string, string> = {};

async function create(m: TestMerchant, key: string, transactionId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: key,
    body: sessionRequest(m.merchant.id, { transaction_id: transactionId, ...overrides }),
  });
  expect(created.status).toBe(201);
  return created.body.data?.session_id as string;
}

beforeAll(async () => {
  [service, browser, webhooks] = await Promise.all([startTestService(), launchBrowser(), startWebhookReceiver()]);
  webhooks.respondWith(() => 500);
  shopA = await createTestMerchant(service.db.sql, { name: 'Shop A' });
  shopB = await createTestMerchant(service.db.sql, { name: 'Shop B' });
  await createDashboardUser(service.db.sql, shopA.merchant.id, 'a@example.com');
  await createDashboardUser(service.db.sql, shopB.merchant.id, 'b@example.com');
  ids.paid = await create(shopA, shopA.testKey, 'order-1,"paid"', { webhook_url: webhooks.url, amount_usd: 12.3 });
  ids.open = await create(shopA, shopA.testKey, 'order-2');
  ids.live = await create(shopA, shopA.liveKey, 'live-order-3');
  ids.otherMerchant = await create(shopB, shopB.testKey, 'b-order-4');
  const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${ids.paid}/simulate`, {
    apiKey: shopA.testKey,
    body: { status: 'completed' },
  });
  expect(simulated.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await webhooks?.close();
  await service?.stop();
});

const listedIds = (page: Page) =>
  page.locator('tr[data-session-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session-id')));

describe('dashboard: sessions', () => {
  it('lists only this merchant and mode, newest first, filters, and exports the filtered list as CSV', async () => {
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'a@example.com');
    await waitForView(page, 'sessions');
    await expect.poll(() => listedIds(page)).toEqual([ids.open, ids.paid]);
    await dashboardScreenshot(page, 'sessions');

    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => listedIds(page)).toEqual([ids.paid]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const rows = parse(await readFile((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      expect.objectContaining({ session_id: ids.paid, transaction_id: 'order-1,"paid"', status: 'completed', amount_usd: '12.30' }),
    ]);
    expect(Object.keys(rows[0]!)).toEqual([...CSV_COLUMNS]);

    await page.getByRole('link', { name: 'Switch to live' }).click();
    await expect.poll(() => page.textContent('.mode-label')).toBe('Live data');
    await expect.poll(() => listedIds(page)).toEqual([ids.live]);
    expect(tab.external).toEqual([]);
    expect(tab.problems).toEqual([]);
    await tab.close();
  });

  it('shows the timeline and webhook attempts, and Redeliver adds a new attempt', async () => {
    // The receiver refuses the first attempt.
    await expect
      .poll(async () => (await listWebhookDeliveries(service.db.sql, ids.paid!))[0]?.attempts.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'a@example.com');
    await waitForView(page, 'sessions');
    await page.getByRole('link', { name: ids.paid! }).click();
    await waitForView(page, 'session');
    const timeline = page.locator('.timeline li');
    await expect
      .poll(() => timeline.allTextContents())
      .toEqual([
        expect.stringMatching(/^pending at .*Session created/),
        expect.stringMatching(/^completed at .*simulated through POST \/checkout\/sessions\/{session_id}\/simulate/),
      ]);
    const attempts = page.locator('.delivery .attempt');
    await expect.poll(() => attempts.allTextContents()).toEqual([expect.stringMatching(/^1.*500.*HTTP 500$/)]);

    webhooks.respondWith(() => 200);
    const [redelivery] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/redeliver') && response.request().method() === 'POST'),
      page.getByRole('button', { name: /^Redeliver payment.completed/ }).click(),
    ]);
    expect(redelivery.status()).toBe(202);
    // The redelivery is its own workflow, delivered once the receiver answers 200.
    const { workflow_id: workflowId } = ((await redelivery.json()) as { data: { workflow_id: string } }).data;
    await service.temporal.workflow.getHandle(workflowId).result();
    // The original delivery retries ten seconds after its refusal: on a loaded machine that retry may land too.
    await expect.poll(async () => (await attempts.allTextContents()).at(-1), { timeout: 40_000 }).toMatch(/200/);
    const answers = webhooks.received.map((w) => w.answeredWith);
    expect(answers[0]).toBe(500);
    expect(answers.at(-1)).toBe(200);
    expect(await attempts.count()).toBe(answers.length);
    await dashboardScreenshot(page, 'session-detail');
    expect((await listAuditEvents(service.db.sql, shopA.merchant.id)).map((e) => e.action)).toContain('webhook.redeliver');
    expect(tab.problems).toEqual([]);
    await tab.close();
  });

  it('shows a deposit that arrived after the session closed as owed back to the customer, not as a payment', async () => {
    const sessionId = await create(shopA, shopA.testKey, 'order-late', { amount_usd: 12.3 });
    const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, {
      apiKey: shopA.testKey,
      body: { status: 'completed' },
    });
    expect(simulated.status).toBe(200);
    // As the workflow and the indexer leave them: 12.5 USDC credited against a 12.3 price, then 5 USDC after the close.
    const { sql } = service.db;
    const paymentId = paymentIdForSession(sessionId);
    // The simulation recorded a payment of record; make it the chosen pair the deposits pay.
    await sql`update payments set token = 'USDC', chain = 'base', deposit_address = '0xdeposit', expected_base_units = 12300000,
                received_base_units = 12500000, decimals = 6 where id = ${paymentId}`;
    const deposit = async (amount: number, verdict: { credited: boolean; late: boolean }) => {
      const txHash = `0x${randomBytes(32).toString('hex')}`;
      await sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                  block_number, block_hash, stage, confirmations, credited, late, signalled_stage, signalled_confirmations)
                values ('base', ${txHash}, 0, 'testnet', ${sessionId}, 'USDC', ${amount}, '0xpayer', '0xdeposit', 100, '0xbh',
                  'confirmed', 12, ${verdict.credited}, ${verdict.late}, 'confirmed', 12)`;
      return txHash;
    };
    const paid = await deposit(12_500_000, { credited: true, late: false });
    await postCreditedDeposits(sql, paymentId);
    const late = await deposit(5_000_000, { credited: false, late: true });
    await postRefundOnlyDeposit(sql, sessionId, 'testnet', { chain: 'base', txHash: late, logIndex: 0 });

    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'a@example.com');
    await waitForView(page, 'sessions');
    await page.getByRole('link', { name: sessionId }).click();
    await waitForView(page, 'session');
    const row = (txHash: string) => page.locator(`tr.deposit[data-tx-hash="${txHash}"] td`);
    await expect
      .poll(() => row(late).allTextContents())
      .toEqual([
        '5.000000 USDC',
        'base',
        'confirmed, 12 confirmations, block 100',
        late,
        'Owed back to the customer: arrived after the session closed',
        '5.000000 USDC',
        '–',
      ]);
    expect(await row(paid).allTextContents()).toEqual([
      '12.500000 USDC',
      'base',
      'confirmed, 12 confirmations, block 100',
      paid,
      'Credited to the payment; the excess over the price is owed back to the customer',
      '0.200000 USDC',
      '–',
    ]);
    expect(await page.locator(`tr.deposit[data-tx-hash="${late}"] a`).getAttribute('href')).toContain(late);
    expect(await page.locator('[data-owed-back]').textContent()).toBe('5.200000 USDC on base');
    await dashboardScreenshot(page, 'session-detail-owed-back');

    await page.getByRole('link', { name: '← All sessions' }).click();
    await waitForView(page, 'sessions');
    const badges = page.locator('tr[data-session-id] .badge.owed');
    await expect.poll(() => badges.count()).toBe(1);
    expect(await page.locator(`tr[data-session-id="${sessionId}"] .badge.owed`).textContent()).toBe('owed back');
    expect(tab.problems).toEqual([]);
    await tab.close();
  });

  it("never shows merchant A's sessions to merchant B, nor test sessions in live mode", async () => {
    const b = new DashboardClient(service.baseUrl);
    await b.signIn('b@example.com');
    expect((await b.request('GET', `/api/test/sessions/${ids.paid}`)).status).toBe(404);
    const deliveryId = (await listWebhookDeliveries(service.db.sql, ids.paid!))[0]!.id;
    expect((await b.request('POST', `/api/test/webhook-deliveries/${deliveryId}/redeliver`)).status).toBe(404);
    const from = encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString());
    const listed = (await b.request('GET', `/api/test/sessions?created_from=${from}&created_to=${to}`)).body.data as {
      session_id: string;
    }[];
    expect(listed.map((s) => s.session_id)).toEqual([ids.otherMerchant]);

    const a = new DashboardClient(service.baseUrl);
    await a.signIn('a@example.com');
    expect((await a.request('GET', `/api/live/sessions/${ids.paid}`)).status).toBe(404);
    const csv = await a.request('GET', `/api/live/export/sessions.csv?created_from=${from}&created_to=${to}`);
    expect((parse(csv.text, { columns: true }) as { session_id: string }[]).map((r) => r.session_id)).toEqual([ids.live]);
  });
});
