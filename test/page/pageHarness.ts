// Real headless Chromium (Debian's, provisioned by toolchain/provision.ts) against the real service harness.
// Every request the browser makes is checked: anything that would leave loopback is aborted and recorded,
// and console errors (a CSP violation is one) and uncaught page errors are collected, so a test can
// assert the page stayed self-contained and quiet.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'page');

/** playwright's launch() gives every browser a fresh temporary profile (user-data dir), removed on close. */
export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run npm run setup (it installs Debian's chromium package)`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export interface CheckoutTab {
  page: Page;
  /** URLs the page tried to reach off loopback (always aborted). */
  external: string[];
  /** Console errors and uncaught exceptions. */
  problems: string[];
  close(): Promise<void>;
}

/** A new, isolated tab; phone-sized unless told otherwise. */
export async function openTab(browser: Browser, options: { width?: number; height?: number } = {}): Promise<CheckoutTab> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 390, height: options.height ?? 844 },
    deviceScaleFactor: 1,
  });
  // The copy buttons write to the clipboard; headless Chromium asks for permission, a person clicking does not.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const external: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
    external.push(url.href);
    return route.abort();
  });
  page.on('console', (message) => {
    // A 401/404 answered to fetch() is an expected state of the page, which Chromium also logs.
    if (message.type() === 'error' && !/status of 40[14]/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, external, problems, close: () => context.close() };
}

/** The session's checkout_url_with_token, pointed at the test server instead of PUBLIC_BASE_URL. */
export function localCheckoutUrl(service: TestService, checkoutUrlWithToken: string): string {
  const url = new URL(checkoutUrlWithToken);
  return `${service.baseUrl}${url.pathname}${url.search}`;
}

export interface CreatedSession {
  sessionId: string;
  token: string;
  url: string;
}

/** `webhookUrl` should be a loopback receiver: the tests never reach off this machine, not even for DNS. */
export async function createCheckout(
  service: TestService,
  m: TestMerchant,
  webhookUrl: string,
  overrides: Record<string, unknown> = {},
): Promise<CreatedSession> {
  const body = sessionRequest(m.merchant.id, { webhook_url: webhookUrl, ...overrides });
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', { apiKey: m.testKey, body });
  expect(created.status).toBe(201);
  const withToken = created.body.data?.checkout_url_with_token as string;
  return {
    sessionId: created.body.data?.session_id as string,
    token: new URL(withToken).searchParams.get('token') as string,
    url: localCheckoutUrl(service, withToken),
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Waits until the page shows `step` (main[data-step]), the controller's record of what it rendered. */
export async function waitForStep(page: Page, step: string, timeout = 20_000): Promise<void> {
  await page.waitForSelector(`main[data-step="${step}"]`, { timeout });
}

export function expectSelfContained(tab: CheckoutTab): void {
  expect(tab.external, 'requests off loopback').toEqual([]);
  expect(tab.problems, 'console errors and page errors').toEqual([]);
}

/** A file's service without a worker (nothing it opens needs one), its Chromium, and a merchant of USDC on base and Solana. */
export interface PageBench {
  service: TestService;
  browser: Browser;
  shop: TestMerchant;
}

/** Starts the file's bench before its tests and stops it after them: read its fields inside the tests. */
export function pageBenchWithoutWorker(): PageBench {
  const bench = {} as PageBench;
  beforeAll(async () => {
    [bench.service, bench.browser] = await Promise.all([startTestService({ worker: false }), launchBrowser()]);
    bench.shop = await createTestMerchant(bench.service.db.sql, { supportedTokens: { USDC: ['base', 'solana'] } });
  });
  afterAll(async () => {
    await bench.browser?.close();
    await bench.service?.stop();
  });
  return bench;
}
