// The Settings page in real Chromium: the settlement wallet changes only with the password (audited, with
// before and after), payment settings and bank accounts with the CLI's validation, and enrolling an
// authenticator app, after which sign-in asks for its code.
import type { Browser } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../db/repositories/auditEvents';
import { listBankAccounts } from '../../db/repositories/bankAccountListing';
import { findMerchant } from '../../db/repositories/merchants';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { startTestService, type TestService } from '../support/service';
import { launchBrowser } from '../page/pageHarness';
import { createDashboardUser, PASSWORD } from './dashboardClient';
import { dashboardScreenshot, openDashboardTab, signInThroughPage, waitForView } from './dashboardBrowser';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

let service: TestService;
let browser: Browser;
let merchant: TestMerchant;

beforeAll(async () => {
  [service, browser] = await Promise.all([startTestService({ worker: false }), launchBrowser()]);
  merchant = await createTestMerchant(service.db.sql, { name: 'Settings shop' });
  await createDashboardUser(service.db.sql, merchant.merchant.id, 'owner@example.com');
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function openSettings(email = 'owner@example.com') {
  const tab = await openDashboardTab(browser);
  await signInThroughPage(tab.page, service.baseUrl, email);
  await waitForView(tab.page, 'sessions');
  await tab.page.getByRole('link', { name: 'Settings' }).click();
  await waitForView(tab.page, 'settings');
  await tab.page.waitForSelector('#current-wallet');
  return tab;
}

describe('dashboard: settings', () => {
  it('changes the settlement wallet only with the password, and audits the change', async () => {
    const tab = await openSettings();
    const { page } = tab;
    const walletForm = page.getByRole('form', { name: 'Change the settlement wallet' });
    await page.getByLabel('New settlement wallet').fill('not-a-wallet');
    await page.getByLabel('Your password').fill(PASSWORD);
    await walletForm.getByRole('button', { name: 'Change wallet' }).click();
    await expect.poll(() => walletForm.locator('[role="alert"]').textContent()).toContain('settlement_wallet: Must be a Solana address');
    await page.getByLabel('New settlement wallet').fill(WALLET);
    await page.getByLabel('Your password').fill('wrong password');
    await walletForm.getByRole('button', { name: 'Change wallet' }).click();
    await expect.poll(() => walletForm.locator('[role="alert"]').textContent()).toContain('Wrong password');
    expect((await findMerchant(service.db.sql, merchant.merchant.id))?.settlementWallet).toBe(merchant.merchant.settlementWallet);

    await page.getByLabel('Your password').fill(PASSWORD);
    await walletForm.getByRole('button', { name: 'Change wallet' }).click();
    await expect.poll(() => page.textContent('#current-wallet')).toBe(WALLET);
    expect((await findMerchant(service.db.sql, merchant.merchant.id))?.settlementWallet).toBe(WALLET);
    const change = (await listAuditEvents(service.db.sql, merchant.merchant.id)).find((e) => e.action === 'merchant.settlement_wallet');
    expect(change?.changes).toEqual({ from: merchant.merchant.settlementWallet, to: WALLET });
    await tab.close();
  });

  it('saves tolerance, lifetime, accepted pairs and what an underpaid session does at expiry, and adds and deactivates bank accounts with the CLI’s checks', async () => {
    const tab = await openSettings();
    const { page } = tab;
    await page.getByLabel('Tolerance (basis points)').fill('75');
    await page.getByLabel('Session lifetime (minutes)').fill('30');
    await page.getByRole('group', { name: 'USDT on' }).getByLabel('tron').uncheck();
    expect(await page.getByLabel('Underpaid at expiry').inputValue()).toBe('settle');
    await page.getByLabel('Underpaid at expiry').selectOption('refund');
    await page.getByRole('button', { name: 'Save payment settings' }).click();
    await expect.poll(() => page.getByText('Saved. New sessions use these settings.').count()).toBe(1);
    const saved = (await findMerchant(service.db.sql, merchant.merchant.id))!;
    expect(saved).toMatchObject({ toleranceBps: 75, sessionLifetimeSeconds: 1800, underpaidExpiry: 'refund' });
    expect(saved.supportedTokens.USDT).not.toContain('tron');
    expect(saved.supportedTokens.USDC).toContain('tron');

    const bankForm = page.getByRole('form', { name: 'Add a bank account' });
    await bankForm.getByLabel('Currency').fill('eur');
    await bankForm.getByLabel('Account name').fill('Settings Shop GmbH');
    await bankForm.getByLabel('Bank name').fill('Example Bank');
    await bankForm.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01');
    await bankForm.getByRole('button', { name: 'Add account' }).click();
    await expect
      .poll(() => bankForm.locator('[role="alert"]').textContent())
      .toContain('iban: Must be a valid IBAN (check digits included)');
    await bankForm.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await bankForm.getByRole('button', { name: 'Add account' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'DE89370400440532013000' }).count()).toBe(1);
    await dashboardScreenshot(page, 'settings');
    await page.getByRole('button', { name: 'Deactivate the EUR account' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'DE89370400440532013000' }).textContent()).toContain('Inactive');
    expect((await listBankAccounts(service.db.sql, merchant.merchant.id)).map((a) => [a.currency, a.active])).toEqual([['EUR', false]]);
    const actions = (await listAuditEvents(service.db.sql, merchant.merchant.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['merchant.settings', 'bank_account.add', 'bank_account.deactivate']));
    await tab.close();
  });

  it('enrols an authenticator app; sign-in then asks for its code and refuses a wrong one', async () => {
    await createDashboardUser(service.db.sql, merchant.merchant.id, 'totp@example.com');
    const tab = await openSettings('totp@example.com');
    const { page } = tab;
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.locator('#totp-secret').textContent({ timeout: 10_000 }))!;
    expect(await page.getByRole('img', { name: 'QR code of the authenticator secret' }).count()).toBe(1);
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await page.getByLabel('Code from the app').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByText('Authenticator app turned on').count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await waitForView(page, 'sign-in');

    await page.getByLabel('Email').fill('totp@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.getByLabel('Authenticator code');
    await code.waitFor({ state: 'visible' });
    await code.fill(String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.textContent('[role="alert"]')).toContain('Wrong email, password or authenticator code');
    await code.fill(totp.generate());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForView(page, 'sessions');
    expect(tab.external).toEqual([]);
    await tab.close();
  });
});
