// The hosted checkout page in real Chromium, paying by bank transfer: the currency selector appears only
// when there are several currencies, the account is shown field by field with the payment reference
// highlighted, and the page completes without a reload once the session does.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankTransferReference } from '../../domain/session/bankTransfer';
import { createBankAccount, createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { createCheckout, expectSelfContained, launchBrowser, openTab, screenshot, waitForStep } from './pageHarness';

const SOON = { timeout: 10_000 };

let service: TestService;
let browser: Browser;
let webhooks: WebhookReceiver;
let oneCurrency: TestMerchant;
let severalCurrencies: TestMerchant;

beforeAll(async () => {
  [service, browser, webhooks] = await Promise.all([startTestService(), launchBrowser(), startWebhookReceiver()]);
  oneCurrency = await createTestMerchant(service.db.sql, { name: 'Euro shop', supportedTokens: { USDC: ['base'] } });
  await createBankAccount(service.db.sql, oneCurrency.merchant.id, 'EUR', { iban: 'DE89370400440532013000' });
  severalCurrencies = await createTestMerchant(service.db.sql, { name: 'Global shop', supportedTokens: { USDC: ['base'] } });
  await createBankAccount(service.db.sql, severalCurrencies.merchant.id, 'EUR');
  await createBankAccount(service.db.sql, severalCurrencies.merchant.id, 'GBP', {
    iban: null,
    swiftBic: null,
    accountNumber: '31926819',
    sortCode: '601613',
  });
  await createBankAccount(service.db.sql, severalCurrencies.merchant.id, 'USD');
});
afterAll(async () => {
  await browser?.close();
  await webhooks?.close();
  await service?.stop();
});

const dd = (label: string) => `.field:has(dt:text-is("${label}")) .value`;

describe('hosted checkout page, bank transfer', () => {
  it('with one currency goes straight to the account details, reference highlighted, and completes when the session does', async () => {
    const session = await createCheckout(service, oneCurrency, webhooks.url, { amount_usd: 42.5 });
    const tab = await openTab(browser);
    const { page } = tab;
    await page.goto(session.url);
    await waitForStep(page, 'choose');
    // Landmarks and the live status region a screen reader navigates by.
    for (const role of ['banner', 'main', 'contentinfo', 'status'] as const) expect(await page.getByRole(role).count(), role).toBe(1);
    await page.getByRole('radio', { name: 'Bank transfer' }).check();
    expect(await page.isHidden('.crypto-part')).toBe(true);
    await page.getByRole('button', { name: 'Show bank details' }).click();
    await waitForStep(page, 'bank');

    const reference = bankTransferReference(session.sessionId);
    await expect.poll(() => page.textContent('#bank-reference'), SOON).toBe(reference);
    expect(await page.$('#bank-currency')).toBeNull();
    expect(await page.locator('.field-emphasis #bank-reference').count()).toBe(1);
    expect(await page.textContent(dd('IBAN'))).toBe('DE89370400440532013000');
    expect(await page.textContent(dd('Account name'))).toBe('Test Merchant Ltd');
    expect(await page.locator('dt', { hasText: 'Sort code' }).count()).toBe(0);
    expect(await page.textContent('.bank-body')).toContain('Transfer the equivalent of $42.50 in EUR');
    await page.getByRole('button', { name: 'Copy payment reference' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    await screenshot(page, '07-bank-one-currency');

    // The merchant's confirmation of the transfer, as simulate delivers it: the page completes without a reload.
    const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${session.sessionId}/simulate`, {
      apiKey: oneCurrency.testKey,
      body: { status: 'completed' },
    });
    expect(simulated.status).toBe(200);
    await waitForStep(page, 'outcome');
    expect(await page.textContent('#outcome-heading')).toBe('Payment complete');
    expectSelfContained(tab);
    await tab.close();
  });

  it('with several currencies asks for one first, by keyboard too, then shows that account', async () => {
    const session = await createCheckout(service, severalCurrencies, webhooks.url, { amount_usd: 19.99 });
    const tab = await openTab(browser);
    const { page } = tab;
    await page.goto(session.url);
    await waitForStep(page, 'choose');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('crypto');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('bank');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Show bank details');
    await page.keyboard.press('Enter');
    await waitForStep(page, 'bank');

    const select = page.getByLabel('Currency of your transfer');
    await expect.poll(() => select.count(), SOON).toBe(1);
    expect(await page.$$eval('#bank-currency option', (options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
      '',
      'EUR',
      'GBP',
      'USD',
    ]);
    expect(await page.$('#bank-reference')).toBeNull();
    await select.focus();
    await select.selectOption('GBP');
    await expect.poll(() => page.textContent('#bank-reference'), SOON).toBe(bankTransferReference(session.sessionId));
    expect(await page.textContent(dd('Account number'))).toBe('31926819');
    expect(await page.textContent(dd('Sort code'))).toBe('601613');
    expect(await page.locator('dt', { hasText: 'IBAN' }).count()).toBe(0);
    expect(await page.textContent('.bank-details')).toContain('$19.99 in GBP');
    await screenshot(page, '08-bank-several-currencies');

    await page.getByRole('button', { name: 'Pay with stablecoins instead' }).click();
    await waitForStep(page, 'choose');
    expectSelfContained(tab);
    await tab.close();
  });
});
