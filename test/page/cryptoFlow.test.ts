// The hosted checkout page in real Chromium, paying in stablecoins: keyboard-only choice of token and
// network, the payment instructions, then the session workflow is driven as the indexer would drive it
// (deposit signals, confirmations written to the deposits table) and the page follows without a reload.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepositObservation } from '../../domain/session/deposit';
import { depositConfirmedSignal, depositDetectedSignal } from '../../workflows/messages';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { indexerRecords } from '../support/workflowHarness';
import { startTestService, type TestService } from '../support/service';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import {
  createCheckout,
  expectSelfContained,
  launchBrowser,
  openTab,
  SCREENSHOT_DIR,
  screenshot,
  waitForStep,
  type CheckoutTab,
} from './pageHarness';

// The page polls every 2 s; expect.poll's own default (1 s) is shorter than one round.
const SOON = { timeout: 10_000 };

let service: TestService;
let browser: Browser;
let shop: TestMerchant;
let webhooks: WebhookReceiver;

beforeAll(async () => {
  [service, browser, webhooks] = await Promise.all([startTestService(), launchBrowser(), startWebhookReceiver()]);
  shop = await createTestMerchant(service.db.sql, {
    name: 'Crypto shop',
    supportedTokens: { USDC: ['ethereum', 'base', 'solana'], USDT: ['tron'] },
  });
});
afterAll(async () => {
  await browser?.close();
  await webhooks?.close();
  await service?.stop();
});

async function depositAddress(sessionId: string): Promise<string> {
  const [row] = await service.db.sql<{ deposit_address: string }[]>`select deposit_address from payments where session_id = ${sessionId}`;
  if (!row) throw new Error('no payment recorded');
  return row.deposit_address;
}

function observation(toAddress: string, amount: string, n: number): DepositObservation {
  return {
    chain: 'base',
    token: 'USDC',
    txHash: `0x${n.toString(16).padStart(64, '0')}`,
    logIndex: 0,
    amount,
    toAddress,
    fromAddress: `0x${'11'.repeat(20)}`,
    blockNumber: String(1000 + n),
    blockHash: `0x${(n + 7).toString(16).padStart(64, 'a')}`,
  };
}

/** Chooses USDC on Base with the keyboard alone: Tab into the token group, Tab to the network group, arrow, Enter. */
async function chooseBaseByKeyboard(tab: CheckoutTab): Promise<void> {
  const { page } = tab;
  await waitForStep(page, 'choose');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('USDC');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('ethereum');
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('base');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Show payment details');
  await page.keyboard.press('Enter');
  await waitForStep(page, 'pay');
}

describe('hosted checkout page, stablecoin payment', () => {
  it('goes from opening the link to completed, showing instructions and confirmation progress', async () => {
    const session = await createCheckout(service, shop, webhooks.url, {
      amount_usd: 42.5,
      merchant_currency: 'EUR',
      merchant_amount: 39.1,
    });
    const tab = await openTab(browser);
    const { page } = tab;
    await page.goto(session.url);
    await expect.poll(() => page.textContent('h1'), SOON).toContain('$42.50');
    await expect.poll(() => page.textContent('.merchant-amount'), SOON).toContain('€39.10');
    expect(await page.textContent('#status')).toContain('Waiting for you to choose how to pay');
    // Only the session's pairs that test payments can take are offered: USDT has no tron test-network contract.
    expect(await page.$$eval('input[name=token]', (inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['USDC']);
    expect(await page.$$eval('input[name=chain]', (inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual([
      'ethereum',
      'base',
      'solana',
    ]);
    await screenshot(page, '01-choose');

    await chooseBaseByKeyboard(tab);
    // Focus follows the step change to its heading, for keyboard and screen-reader users.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay-heading');
    const address = await depositAddress(session.sessionId);
    expect(await page.textContent('#pay-heading')).toBe('Send exactly 42.50 USDC');
    expect(await page.textContent('#pay-address')).toBe(address);
    expect(await page.textContent('#pay-amount')).toBe('42.50');
    expect(await page.textContent('.facts')).toContain('Confirmations required: 64');
    expect(await page.textContent('.facts')).toContain('about 2 minutes');
    const wallet = await page.getAttribute('a.button', 'href');
    expect(wallet).toMatch(new RegExp(`^ethereum:0x[0-9a-fA-F]{40}@\\d+/transfer\\?address=${address}&uint256=42500000$`));
    await page.waitForSelector('img.qr[src^="data:image/svg+xml"]');
    await expect.poll(() => page.textContent('#status'), SOON).toContain('Waiting for your payment');

    await page.getByRole('button', { name: 'Copy address' }).click();
    await expect.poll(() => page.textContent('.field-emphasis .copy-feedback'), SOON).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await screenshot(page, '02-awaiting-payment');
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
      copyFileSync(join(SCREENSHOT_DIR, '02-awaiting-payment.png'), join(process.cwd(), 'docs', 'checkout-page.png'));

    const handle = service.temporal.workflow.getHandle(session.sessionId);
    const paid = observation(address, '42500000', 1);
    // As the indexer reports a deposit: its row first, then the signal.
    await indexerRecords(service.db.sql, session.sessionId, paid);
    await handle.signal(depositDetectedSignal, paid);
    await waitForStep(page, 'progress');
    expect(await page.textContent('#status')).toContain('Payment detected');
    // The indexer counts confirmations into the deposits table; the page reads them from there.
    await service.db.sql`update deposits set confirmations = 20 where session_id = ${session.sessionId}`;
    await expect.poll(() => page.textContent('.progress-label'), SOON).toBe('20 of 64 confirmations');
    expect(await page.getAttribute('#confirmations', 'aria-valuetext')).toBe('20 of 64 confirmations');
    await screenshot(page, '03-confirming');

    await indexerRecords(service.db.sql, session.sessionId, paid, { confirmations: 64 });
    await handle.signal(depositConfirmedSignal, { ...paid, confirmations: 64 });
    await waitForStep(page, 'outcome');
    expect(await page.textContent('#outcome-heading')).toBe('Payment complete');
    expect(await page.textContent('.outcome')).toContain('We received 42.50 USDC');
    expect(await page.textContent('#status')).toContain('Completed');
    await screenshot(page, '04-completed');
    expectSelfContained(tab);
    await tab.close();
  });

  it('after an underpayment shows what arrived and asks for the amount still due', async () => {
    const session = await createCheckout(service, shop, webhooks.url, { amount_usd: 42.5 });
    const tab = await openTab(browser);
    const { page } = tab;
    await page.goto(session.url);
    await waitForStep(page, 'choose');
    await page.getByRole('radio', { name: /Base/ }).check();
    await page.getByRole('button', { name: 'Show payment details' }).click();
    await waitForStep(page, 'pay');
    const address = await depositAddress(session.sessionId);

    const short = observation(address, '30000000', 2);
    const handle = service.temporal.workflow.getHandle(session.sessionId);
    await indexerRecords(service.db.sql, session.sessionId, short, { confirmations: 64 });
    await handle.signal(depositDetectedSignal, short);
    await handle.signal(depositConfirmedSignal, { ...short, confirmations: 64 });
    await expect.poll(() => page.textContent('#status'), SOON).toContain('12.50 USDC still due');
    expect(await page.textContent('#pay-heading')).toBe('Send the remaining 12.50 USDC');
    expect(await page.textContent('.step .notice-warn')).toContain('We received 30.00 of 42.50 USDC');
    expect(await page.textContent('#pay-amount')).toBe('12.50');
    expect(await page.getAttribute('a.button', 'href')).toMatch(/uint256=12500000$/);
    await screenshot(page, '05-underpaid');
    expectSelfContained(tab);
    await tab.close();
  });

  it('shows an expired checkout, whether the session expired on its own or was forced to', async () => {
    const forced = await createCheckout(service, shop, webhooks.url);
    const tab = await openTab(browser);
    await tab.page.goto(forced.url);
    await waitForStep(tab.page, 'choose');
    const simulated = await call(service.baseUrl, 'POST', `/checkout/sessions/${forced.sessionId}/simulate`, {
      apiKey: shop.testKey,
      body: { status: 'expired' },
    });
    expect(simulated.status).toBe(200);
    await waitForStep(tab.page, 'outcome');
    expect(await tab.page.textContent('#outcome-heading')).toBe('This checkout has expired');
    await screenshot(tab.page, '06-expired');

    // Natural expiry: the countdown reaches zero and the token, which lives as long as the session, is refused.
    const lapsing = await createCheckout(service, shop, webhooks.url);
    await tab.page.goto(lapsing.url);
    await waitForStep(tab.page, 'choose');
    await service.db.sql`update sessions set expires_at = now() + interval '3 seconds' where id = ${lapsing.sessionId}`;
    await waitForStep(tab.page, 'outcome', 15_000);
    expect(await tab.page.textContent('#outcome-heading')).toBe('This checkout has expired');
    expect(await tab.page.textContent('.countdown')).toBe('0:00');
    expectSelfContained(tab);
    await tab.close();
  });
});
