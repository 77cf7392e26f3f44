// The dashboard in real Chromium (the hosted page's harness: Debian's chromium, every off-loopback request
// aborted and recorded, console errors collected), on a desktop-sized viewport, with screenshots of each
// page in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openTab, type CheckoutTab } from '../page/pageHarness';
import { PASSWORD } from './dashboardClient';

export const DASHBOARD_SCREENSHOTS = join(process.cwd(), 'test-results', 'dashboard');

export function openDashboardTab(browser: Browser): Promise<CheckoutTab> {
  return openTab(browser, { width: 1280, height: 900 });
}

export async function dashboardScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(DASHBOARD_SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(DASHBOARD_SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Waits until the controller has drawn `view` (main[data-view]). */
export async function waitForView(page: Page, view: string): Promise<void> {
  await page.waitForSelector(`main[data-view="${view}"]`, { timeout: 20_000 });
}

export async function signInThroughPage(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await waitForView(page, 'sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
