// The refund claim page in real Chromium (docs/refunds.md#claim-flow): opened from the claim link, it checks the
// address as the customer types, refuses a token account, offers the address that paid only as an explicit choice,
// claims to a Solana wallet once the warning is confirmed, and follows the refund to its transaction.
import { ed25519 } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address } from '@solana/kit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRefund } from '../../db/repositories/refunds';
import { refundClaimMessage } from '../../domain/refunds/claimMessage';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { creditedDeposit, pendingRefund, solanaWallet } from '../support/refundClaims';
import { startTestService, type TestService } from '../support/service';
import { createCheckout, expectSelfContained, launchBrowser, openTab, screenshot, waitForStep } from './pageHarness';

const WEBHOOK_URL = 'http://127.0.0.1:9/webhooks';
// The page polls every 5 s once claimed.
const SOON = { timeout: 15_000 };

let service: TestService;
let browser: Browser;
let shop: TestMerchant;

beforeAll(async () => {
  [service, browser] = await Promise.all([startTestService({ worker: false }), launchBrowser()]);
  shop = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base', 'solana'] } });
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('refund claim page', () => {
  it('refuses a bad address and a token account, then claims to a Solana wallet and shows the transaction', async () => {
    const session = await createCheckout(service, shop, WEBHOOK_URL);
    const payer = solanaWallet(21);
    const wallet = solanaWallet(22);
    await creditedDeposit(service.db.sql, session.sessionId, 'solana', payer.address, 1);
    const { refund, token } = await pendingRefund(
      service.db.sql,
      { sessionId: session.sessionId, merchantId: shop.merchant.id },
      service.config.sessionTokenSecret as string,
    );
    const unchanged = await findRefund(service.db.sql, refund.id);

    const tab = await openTab(browser);
    const { page } = tab;
    await page.goto(`${service.baseUrl}/refunds/${token}`);
    await waitForStep(page, 'claim');
    expect(await page.textContent('h1')).toContain('$12.34');
    expect(await page.textContent('.summary')).toContain('USDC on Solana');
    expect(await page.$$eval('input[name=route]', (inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['USDC:solana']);
    // The address that paid is offered, never filled in.
    expect(await page.textContent('#send-back')).toBe(`Send back to the address that paid (${payer.address})`);
    expect(await page.inputValue('#refund-address')).toBe('');

    await page.fill('#refund-address', 'not-a-wallet');
    expect(await page.textContent('#refund-address-error')).toBe('This address is not a Solana address (32 bytes of base58)');
    expect(await page.getAttribute('#refund-address', 'aria-invalid')).toBe('true');
    await page.check('#refund-acknowledge');
    await page.click('button[type=submit]');
    await screenshot(page, 'refund-01-invalid-address');
    expect(await page.getAttribute('main', 'data-step')).toBe('claim');
    expect(await findRefund(service.db.sql, refund.id)).toEqual(unchanged);

    const [ata] = await findAssociatedTokenPda({
      owner: address(wallet.address),
      mint: address('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    await page.fill('#refund-address', ata);
    expect(await page.textContent('#refund-address-error')).toBe(
      'This address is off the ed25519 curve: a token account or program address, not a wallet; give the wallet (owner) address',
    );
    await page.click('button[type=submit]');
    expect(await page.getAttribute('main', 'data-step')).toBe('claim');
    expect(await findRefund(service.db.sql, refund.id)).toEqual(unchanged);

    // The explicit choice fills the payer's address in; the customer then gives their own instead.
    await page.click('#send-back');
    expect(await page.inputValue('#refund-address')).toBe(payer.address);
    await page.fill('#refund-address', wallet.address);
    expect(await page.textContent('#refund-address-error')).toBe('');
    await page.uncheck('#refund-acknowledge');
    await page.click('button[type=submit]');
    expect(await page.textContent('#claim-error')).toBe('Confirm that the address is a wallet you control');
    expect(await findRefund(service.db.sql, refund.id)).toEqual(unchanged);

    await page.check('#refund-acknowledge');
    await page.click('button[type=submit]');
    await waitForStep(page, 'status:claimed');
    expect(await page.textContent('h2')).toBe('Refund claimed');
    expect(await page.textContent('#destination')).toBe(wallet.address);
    expect(await findRefund(service.db.sql, refund.id)).toMatchObject({
      status: 'claimed',
      destination: { chain: 'solana', token: 'USDC', address: wallet.address },
    });
    await screenshot(page, 'refund-02-claimed');

    // As the signer and the workflow would record the payment: the page follows without a reload.
    const signature = '5'.repeat(88);
    await service.db.sql`insert into chain_intents (id, chain, mode) values (${`refund:${refund.id}`}, 'solana', 'test')`;
    await service.db.sql`
      insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, intent_id, status, signature, treasury)
      values (${refund.id}, 'test', 'solana', 'USDC', ${wallet.address}, 12330000, ${`refund:${refund.id}`}, 'confirmed', ${signature}, 'TestTreasury1111111111111111111111111111111')`;
    await service.db.sql`update refunds set status = 'completed', completed_at = now() where id = ${refund.id}`;
    await waitForStep(page, 'status:completed', SOON.timeout);
    expect(await page.textContent('#transaction')).toBe(signature);
    expect(await page.getAttribute('#transaction', 'href')).toBe(`https://explorer.solana.com/tx/${signature}?cluster=devnet`);
    await screenshot(page, 'refund-03-completed');
    expectSelfContained(tab);
    await tab.close();
  });

  it('shows the exact message to sign when the merchant asks for proof, and claims with the signature pasted', async () => {
    const session = await createCheckout(service, shop, WEBHOOK_URL);
    const payer = solanaWallet(23);
    const wallet = solanaWallet(24);
    await creditedDeposit(service.db.sql, session.sessionId, 'solana', payer.address, 2);
    const { refund, token } = await pendingRefund(
      service.db.sql,
      { sessionId: session.sessionId, merchantId: shop.merchant.id },
      service.config.sessionTokenSecret as string,
      { requireSenderProof: true },
    );
    const tab = await openTab(browser);
    const { page } = tab;
    await page.goto(`${service.baseUrl}/refunds/${token}`);
    await waitForStep(page, 'claim');
    expect(await page.textContent('legend:has-text("Prove")')).toBe('Prove the payment was yours');
    await page.fill('#refund-address', wallet.address);
    const message = refundClaimMessage(refund.id, { chain: 'solana', token: 'USDC', address: wallet.address });
    expect(await page.textContent('#claim-message')).toBe(message);
    await page.fill('#sender-signature', base58.encode(ed25519.sign(utf8ToBytes(message), payer.secret)));
    await page.check('#refund-acknowledge');
    await screenshot(page, 'refund-04-proof');
    await page.click('button[type=submit]');
    await waitForStep(page, 'status:claimed');
    expect(await findRefund(service.db.sql, refund.id)).toMatchObject({
      status: 'claimed',
      senderProof: { address: payer.address, message },
    });
    expectSelfContained(tab);
    await tab.close();
  });

  it('says so when the link leads to no refund', async () => {
    const tab = await openTab(browser);
    await tab.page.goto(`${service.baseUrl}/refunds/nonsense`);
    expect(await tab.page.textContent('h1')).toBe('Refund not found');
    await tab.close();
  });
});
