// The dashboard's refunds against the real API, worker and Temporal: a merchant's refund created from a session
// (refused beyond what is still refundable, for an unpaid session and for another merchant's or mode's session; a
// retried submit finds the refund the first made), its workflow started; the Refunds page and its filters; a session's
// refunds, and each deposit owed back linked to the refund that returns it; and in real Chromium the Refunds page and
// the Refund button.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../db/repositories/auditEvents';
import { postLedger } from '../../db/repositories/ledger';
import { findRefund, type Refund } from '../../db/repositories/refunds';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { CUSTOMER_WALLET, insertTestRefund } from '../support/refunds';
import { startTestService, type TestService } from '../support/service';
import { launchBrowser } from '../page/pageHarness';
import { createDashboardUser, DashboardClient } from './dashboardClient';
import { dashboardScreenshot, openDashboardTab, signInThroughPage, waitForView } from './dashboardBrowser';

let service: TestService;
let browser: Browser;
let shopA: TestMerchant;
let shopB: TestMerchant;
const started: string[] = [];

async function paidSession(m: TestMerchant, amountUsd: number): Promise<string> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: m.testKey,
    body: sessionRequest(m.merchant.id, { amount_usd: amountUsd }),
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.data?.session_id as string;
  const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/simulate`, {
    apiKey: m.testKey,
    body: { status: 'completed' },
  });
  expect(simulated.status).toBe(200);
  return sessionId;
}

/** A deposit of `shopA`'s session that came after it closed, and the refund the service paid back for it. */
async function lateDepositRefund(sessionId: string, amount: bigint): Promise<{ txHash: string; refund: Refund }> {
  const txHash = `0x${randomBytes(32).toString('hex')}`;
  await service.db.sql`
    insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address,
                          block_number, block_hash, stage, confirmations, credited, late, signalled_stage, signalled_confirmations)
    values ('base', ${txHash}, 0, 'testnet', ${sessionId}, 'USDC', ${amount.toString()}, '0xpayer', '0xdeposit', 100, '0xbh',
            'confirmed', 12, false, true, 'confirmed', 12)`;
  const refund = await insertTestRefund(
    service.db.sql,
    { merchantId: shopA.merchant.id, sessionId },
    {
      amountUsdMicros: amount,
      deposit: { chain: 'base', txHash, logIndex: 0, token: 'USDC', amountBaseUnits: amount },
      status: 'completed',
      payout: 'confirmed',
    },
  );
  return { txHash, refund };
}

beforeAll(async () => {
  [service, browser] = await Promise.all([startTestService(), launchBrowser()]);
  shopA = await createTestMerchant(service.db.sql, { name: 'Shop A' });
  shopB = await createTestMerchant(service.db.sql, { name: 'Shop B' });
  await createDashboardUser(service.db.sql, shopA.merchant.id, 'a@example.com');
  await createDashboardUser(service.db.sql, shopB.merchant.id, 'b@example.com');
});
afterAll(async () => {
  // The refund workflows these tests started: the worker here may not know their type yet.
  await Promise.all(
    started.map((id) =>
      service.temporal.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await browser?.close();
  await service?.stop();
});

const createRefund = (client: DashboardClient, sessionId: string, body: Record<string, unknown>, mode = 'test') =>
  client.request('POST', `/api/${mode}/sessions/${sessionId}/refunds`, { idempotency_key: randomUUID(), ...body });

describe('dashboard: creating a refund', () => {
  it('creates a pending refund within what the customer paid and starts its workflow; refuses beyond it', async () => {
    const sessionId = await paidSession(shopA, 12.3);
    const a = new DashboardClient(service.baseUrl);
    await a.signIn('a@example.com');

    const key = randomUUID();
    const made = await createRefund(a, sessionId, { amount_usd: 10, reason: 'one item returned', idempotency_key: key });
    expect(made.status, made.text).toBe(201);
    const refundId = made.body.data.refund_id as string;
    started.push(refundWorkflowId(refundId));
    expect(made.body.data).toMatchObject({
      session_id: sessionId,
      status: 'pending_claim',
      source: 'merchant',
      amount_usd: '10.000000',
      reason: 'one item returned',
      destination: null,
      transaction_hash: null,
    });
    expect(await findRefund(service.db.sql, refundId)).toMatchObject({
      merchantId: shopA.merchant.id,
      mode: 'test',
      token: 'USDC',
      chain: 'solana',
      amountUsdMicros: 10_000_000n,
    });
    const workflow = await service.temporal.workflow.getHandle(refundWorkflowId(refundId)).describe();
    expect(workflow.type).toBe('refundWorkflow');

    // The same submit again (its answer lost): the same refund, not a second one.
    const again = await createRefund(a, sessionId, { amount_usd: 10, reason: 'one item returned', idempotency_key: key });
    expect(again.status).toBe(200);
    expect(again.body.data.refund_id).toBe(refundId);

    const tooMuch = await createRefund(a, sessionId, { amount_usd: 2.31 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('amount_usd 2.31 is more than the 2.30 still refundable on this session');
    const rest = await createRefund(a, sessionId, { amount_usd: 2.3 });
    expect(rest.status).toBe(201);
    started.push(refundWorkflowId(rest.body.data.refund_id as string));
    const nothing = await createRefund(a, sessionId, { amount_usd: 0.01 });
    expect([nothing.status, nothing.body.error]).toEqual([409, 'Nothing is left to refund on this session']);

    const bad = await createRefund(a, sessionId, { amount_usd: 1.001 });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.validation_errors).toEqual([expect.stringMatching(/^amount_usd: /)]);
    expect((await listAuditEvents(service.db.sql, shopA.merchant.id)).filter((e) => e.action === 'refund.create')).toHaveLength(2);
    expect(await service.db.sql`select id from refunds where session_id = ${sessionId}`).toHaveLength(2);
  });

  it("refuses a session the customer has not paid, another merchant's and another mode's", async () => {
    const open = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: shopA.testKey,
      body: sessionRequest(shopA.merchant.id, { amount_usd: 5 }),
    });
    const a = new DashboardClient(service.baseUrl);
    await a.signIn('a@example.com');
    const unpaid = await createRefund(a, open.body.data?.session_id as string, { amount_usd: 1 });
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error).toMatch(/^A session that is (pending|awaiting_payment) has no payment to refund/);

    const paid = await paidSession(shopA, 5);
    const b = new DashboardClient(service.baseUrl);
    await b.signIn('b@example.com');
    expect((await createRefund(b, paid, { amount_usd: 1 })).status).toBe(404);
    expect((await createRefund(a, paid, { amount_usd: 1 }, 'live')).status).toBe(404);
    expect(await service.db.sql`select id from refunds where session_id = ${paid}`).toHaveLength(0);
  });
});

describe('dashboard: refunds listed', () => {
  it("lists only this merchant's refunds in this mode, by status and session, and links each deposit owed back to its refund", async () => {
    const sessionId = await paidSession(shopA, 20);
    const { sql } = service.db;
    const { txHash, refund: late } = await lateDepositRefund(sessionId, 5_000_000n);
    const other = await insertTestRefund(sql, { merchantId: shopB.merchant.id, sessionId: await paidSession(shopB, 3) });

    const a = new DashboardClient(service.baseUrl);
    await a.signIn('a@example.com');
    const listed = (await a.request('GET', `/api/test/refunds?session_id=${sessionId}`)).body.data as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({
        refund_id: late.id,
        status: 'completed',
        source: 'late_deposit',
        amount_usd: '5.000000',
        deposit: { chain: 'base', tx_hash: txHash, log_index: 0 },
        destination: { chain: 'solana', token: 'USDC', address: CUSTOMER_WALLET },
        transaction_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        explorer_url: expect.stringMatching(/^https:\/\/explorer\.solana\.com\/tx\/[0-9a-f]{64}\?cluster=devnet$/),
      }),
    ]);
    const all = (await a.request('GET', '/api/test/refunds')).body.data as { refund_id: string }[];
    expect(all.map((r) => r.refund_id)).toContain(late.id);
    expect(all.map((r) => r.refund_id)).not.toContain(other.id);
    expect((await a.request('GET', '/api/test/refunds?status=pending_claim')).body.data).not.toContainEqual(
      expect.objectContaining({ refund_id: late.id }),
    );
    expect((await a.request('GET', '/api/live/refunds')).body.data).toEqual([]);
    expect((await a.request('GET', '/api/test/refunds?status=lost')).status).toBe(400);

    const detail = (await a.request('GET', `/api/test/sessions/${sessionId}`)).body.data as {
      deposits: { tx_hash: string; refund_id: string | null }[];
      refunds: { refund_id: string }[];
    };
    expect(detail.deposits).toEqual([expect.objectContaining({ tx_hash: txHash, refund_id: late.id })]);
    expect(detail.refunds.map((r) => r.refund_id)).toEqual([late.id]);
  });
});

describe('dashboard: statements', () => {
  it("shows this merchant's month from its ledger, downloads it as CSV, and shows the Statements page in Chromium", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const payable = `merchant_payable:${shopA.merchant.id}`;
    const pay = `payout:pay_${randomUUID()}`;
    const post = (groupId: string, debit: string, credit: string, amount: bigint) =>
      postLedger(service.db.sql, {
        groupId,
        mode: 'test',
        reference: pay,
        entries: [
          { account: debit, asset: 'usdc:solana', amount },
          { account: credit, asset: 'usdc:solana', amount: -amount },
        ],
      });
    await post(`deposit:solana:${randomUUID()}:0:settled`, 'merchant_pending:solana', payable, 10_000_000n);
    await post(`${pay}:fee`, payable, 'operator_revenue', 250_000n);
    await post(`${pay}:reserve`, payable, 'payouts_in_flight', 9_750_000n);

    const a = new DashboardClient(service.baseUrl);
    await a.signIn('a@example.com');
    const shown = (await a.request('GET', `/api/test/statements/${month}`)).body.data as { lines: { line: string; amount_usdc: string }[] };
    const line = (name: string) => shown.lines.find((l) => l.line === name)?.amount_usdc;
    expect([line('received'), line('fees'), line('paid_out')]).toEqual(['10.000000', '0.250000', '9.750000']);
    const csv = await a.request('GET', `/api/test/statements/${month}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toContain(`${shopA.merchant.id},test,${month},fees,0.250000\r\n`);
    expect((await a.request('GET', '/api/test/statements/2026-13')).status).toBe(400);
    expect((await a.request('GET', `/api/live/statements/${month}`)).body.data).toMatchObject({
      lines: expect.arrayContaining([{ line: 'received', amount_usdc: '0.000000' }]),
    });
    const b = new DashboardClient(service.baseUrl);
    await b.signIn('b@example.com');
    expect((await b.request('GET', `/api/test/statements/${month}.csv`)).text).toContain(
      `${shopB.merchant.id},test,${month},fees,0.000000`,
    );

    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'a@example.com');
    await waitForView(page, 'sessions');
    await page.getByRole('link', { name: 'Statements' }).click();
    await waitForView(page, 'statements');
    const fees = page.locator('tr[data-line="fees"] td');
    await expect.poll(() => fees.textContent()).toBe('0.250000');
    expect(await page.locator('tr[data-line="received"] td').textContent()).toBe('10.000000');
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(`/dashboard/api/test/statements/${month}.csv`);
    await dashboardScreenshot(page, 'statements');
    await tab.close();
  });
});

describe('dashboard: refunds in Chromium', () => {
  it('shows the Refunds page, and a session’s Refund button creates one shown in its Refunds section', async () => {
    const sessionId = await paidSession(shopA, 8);
    const { txHash, refund: late } = await lateDepositRefund(sessionId, 3_000_000n);

    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'a@example.com');
    await waitForView(page, 'sessions');
    await page.getByRole('link', { name: 'Refunds' }).click();
    await waitForView(page, 'refunds');
    const row = page.locator(`tr.refund[data-refund-id="${late.id}"] td`);
    await expect.poll(() => row.count()).toBe(8);
    const cells = await row.allTextContents();
    expect(cells.slice(0, 5)).toEqual([late.id, 'completed', 'late payment', '3.00', sessionId]);
    expect(cells[6]).toBe(`${CUSTOMER_WALLET} USDC on solana`);
    expect(await page.locator(`tr.refund[data-refund-id="${late.id}"] td a[target="_blank"]`).getAttribute('href')).toMatch(
      /^https:\/\/explorer\.solana\.com\/tx\/[0-9a-f]{64}\?cluster=devnet$/,
    );
    await dashboardScreenshot(page, 'refunds');

    await page.locator(`tr.refund[data-refund-id="${late.id}"]`).getByRole('link', { name: sessionId }).click();
    await waitForView(page, 'session');
    const depositLink = page.locator(`tr.deposit[data-tx-hash="${txHash}"] a[href="#refund-${late.id}"]`);
    await expect.poll(() => depositLink.textContent()).toBe(late.id);
    await depositLink.click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-refund-id'))).toBe(late.id);

    // A session paid through simulate and nothing else: its made-up receipt is what the customer paid.
    const paid = await paidSession(shopA, 8);
    await page.goto(`${service.baseUrl}/dashboard/test/sessions/${paid}`);
    await waitForView(page, 'session');
    await expect.poll(() => page.locator('#refunds-h ~ p').textContent()).toBe('No refund of this session.');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByLabel('Amount (USD)').fill('2.50');
    await page.getByLabel('Reason').fill('returned a cup');
    await page.getByRole('button', { name: 'Create refund' }).click();
    const rows = page.locator('#refunds-h ~ table tr.refund');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    const made = await rows.nth(0).getAttribute('data-refund-id');
    started.push(refundWorkflowId(made!));
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      made,
      'pending claim',
      'refund by you: returned a cup',
      '2.50',
      expect.any(String),
      'Not claimed yet',
      '–',
    ]);
    // Beyond what is left: the refusal is shown by the form.
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByLabel('Amount (USD)').fill('6');
    await page.getByRole('button', { name: 'Create refund' }).click();
    await expect
      .poll(() => page.locator('.refund-action .form-status').textContent())
      .toBe('amount_usd 6 is more than the 5.50 still refundable on this session');
    await dashboardScreenshot(page, 'session-detail-refunds');
    expect(tab.external).toEqual([]);
    // Chromium logs the refused create; nothing else went wrong.
    expect(tab.problems).toEqual([expect.stringMatching(/status of 400/)]);
    await tab.close();
  });
});
