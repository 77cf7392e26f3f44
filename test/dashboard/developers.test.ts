// The Developers page in real Chromium: a key created there is shown once, works against the API, and is
// refused with 403 once revoked from the page; its IP allowlist is set there too. Sign-in through the page:
// a wrong password is refused in place.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../db/repositories/auditEvents';
import { MAX_FAILED_SIGN_INS } from '../../domain/security/signInPolicy';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { findWebhookSecret } from '../../db/repositories/merchants';
import { verifyWebhookSignature } from '../../domain/webhooks/webhookSignature';
import { expectSelfContained, launchBrowser } from '../page/pageHarness';
import { createDashboardUser } from './dashboardClient';
import { dashboardScreenshot, openDashboardTab, signInThroughPage, waitForView } from './dashboardBrowser';

let service: TestService;
let browser: Browser;
let merchant: TestMerchant;
let webhooks: WebhookReceiver;

beforeAll(async () => {
  [service, browser, webhooks] = await Promise.all([startTestService({ worker: false }), launchBrowser(), startWebhookReceiver()]);
  merchant = await createTestMerchant(service.db.sql, { name: 'Keys shop' });
  await createDashboardUser(service.db.sql, merchant.merchant.id, 'dev@example.com');
});
afterAll(async () => {
  await browser?.close();
  await webhooks?.close();
  await service?.stop();
});

describe('dashboard: sign-in and API keys', () => {
  it('refuses a wrong password in place, then signs in', async () => {
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'dev@example.com', 'not the password');
    await expect.poll(() => page.textContent('[role="alert"]')).toContain('Wrong email, password or authenticator code');
    await dashboardScreenshot(page, 'sign-in');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForView(page, 'sessions');
    expect(await page.textContent('.merchant')).toBe('Keys shop');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'dashboard_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true });
    expectSelfContained(tab);
    await tab.close();
  });

  it('locks the account after repeated wrong passwords, and says so in place', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'locked@example.com');
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'locked@example.com', 'wrong password');
    for (let attempt = 2; attempt <= MAX_FAILED_SIGN_INS; attempt++) {
      await expect.poll(() => page.textContent('[role="alert"]')).toContain('Wrong email, password or authenticator code');
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.textContent('[role="alert"]')).toContain('Account locked after repeated failed sign-ins');
    expect(await page.locator('main').getAttribute('data-view')).toBe('sign-in');
    await tab.close();
  });

  it('creates a key shown once, which works against the API until it is revoked from the page', async () => {
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    page.on('dialog', (dialog) => void dialog.accept());
    await signInThroughPage(page, service.baseUrl, 'dev@example.com');
    await waitForView(page, 'sessions');
    await page.getByRole('link', { name: 'Developers' }).click();
    await waitForView(page, 'developers');
    await page.getByLabel('Label').fill('production server');
    await page.getByRole('button', { name: 'Create test key' }).click();
    const raw = (await page.locator('#new-api-key').textContent({ timeout: 10_000 }))!;
    expect(raw).toMatch(/^mk_test_/);
    await page.getByRole('button', { name: 'Copy API key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(raw);

    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: raw, body: sessionRequest(merchant.merchant.id) });
    expect(created.status).toBe(201);

    const row = page.locator('tr', { hasText: 'production server' });
    await row.getByLabel(/Allowed IP addresses/).fill('203.0.113.0/24, nonsense');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('not an IP address or CIDR range: nonsense');
    await row.getByLabel(/Allowed IP addresses/).fill('203.0.113.0/24');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.saved').textContent()).toBe('Saved');
    const read = () => call(service.baseUrl, 'GET', `/checkout/sessions/${created.body.data?.session_id as string}`, { apiKey: raw });
    expect((await read()).body.error).toBe('Invalid API key');
    await row.getByLabel(/Allowed IP addresses/).fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.saved').textContent()).toBe('Saved: any address');
    expect((await read()).status).toBe(200);
    await dashboardScreenshot(page, 'developers');

    await row.getByRole('button', { name: /Revoke/ }).click();
    await expect.poll(() => row.textContent()).toContain('Revoked');
    const refused = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: raw, body: sessionRequest(merchant.merchant.id) });
    expect(refused.status).toBe(403);

    const actions = (await listAuditEvents(service.db.sql, merchant.merchant.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['api_key.create', 'api_key.allowed_ips', 'api_key.revoke']));
    // The one refusal Chromium logs is the invalid allowlist's 400, shown in place above.
    expect(tab.problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    expect(tab.external).toEqual([]);
    await tab.close();
  });

  it('rotates the webhook secret with an overlap and sends a test event signed with both, its outcome shown', async () => {
    const before = (await findWebhookSecret(service.db.sql, merchant.merchant.id, 'test'))!;
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'dev@example.com');
    await waitForView(page, 'sessions');
    await page.getByRole('link', { name: 'Developers' }).click();
    await waitForView(page, 'developers');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.locator('#new-webhook-secret').textContent({ timeout: 10_000 }))!;
    expect(rotated).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await findWebhookSecret(service.db.sql, merchant.merchant.id, 'test')).toBe(rotated);

    webhooks.respondWith(() => 500);
    await page.getByLabel('Webhook URL').fill(webhooks.url);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.locator('.test-events .attempt').allTextContents()).toEqual([expect.stringMatching(/500.*HTTP 500$/)]);
    webhooks.respondWith(() => 200);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.locator('.test-events .attempt').count()).toBe(2);
    expect(await page.locator('.test-events .attempt').first().textContent()).toMatch(/200/);

    const received = webhooks.received.at(-1)!;
    expect(received.headers['x-service-event']).toBe('payment.completed');
    expect(received.headers['x-service-idempotency-key']).toMatch(/^wh_/);
    const signature = received.headers['x-service-signature'] as string;
    for (const secret of [rotated, before])
      expect(verifyWebhookSignature(received.rawBody, signature, secret, 300)).toMatchObject({ valid: true });
    expect(JSON.parse(received.rawBody)).toMatchObject({ event: 'payment.completed', metadata: { test_event: 'true' } });
    const actions = (await listAuditEvents(service.db.sql, merchant.merchant.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['webhook_secret.rotate', 'webhook.test_event']));
    expect(tab.external).toEqual([]);
    await tab.close();
  });

  it('works by keyboard alone: sign in, move between pages, create a key and copy it', async () => {
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('name') ?? el.textContent?.trim() ?? ''}` : '';
      });
    /** Presses Tab until `target` has the focus, as a keyboard user would; fails if it is never reached. */
    const tabTo = async (target: string) => {
      for (let i = 0; i < 40 && (await focused()) !== target; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe(target);
    };
    await page.goto(`${service.baseUrl}/dashboard`);
    await waitForView(page, 'sign-in');
    await tabTo('input:email');
    await page.keyboard.type('dev@example.com');
    await tabTo('input:password');
    await page.keyboard.type('correct horse battery staple');
    await page.keyboard.press('Enter');
    await waitForView(page, 'sessions');
    expect(await focused()).toBe('h1:Sessions');

    await tabTo('a:Developers');
    await page.keyboard.press('Enter');
    await waitForView(page, 'developers');
    await tabTo('input:label');
    await page.keyboard.type('keyboard key');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('button:Copy API key');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^mk_test_/);

    await tabTo('a:Switch to live');
    await page.keyboard.press('Enter');
    // The view keeps its name across the switch: wait for the live page's own content.
    await expect.poll(() => page.textContent('.mode-label')).toBe('Live data');
    // The merchant's one live key (from the test factory), and not the test key just made.
    await expect.poll(() => page.locator('.keys tr[data-key-id]').count()).toBe(1);
    expect(await page.locator('tr', { hasText: 'keyboard key' }).count()).toBe(0);
    expectSelfContained(tab);
    await tab.close();
  });
});
