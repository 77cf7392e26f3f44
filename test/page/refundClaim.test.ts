// The refund claim page in real Chromium (docs/refunds.md#claim-flow): opened from the claim link, it checks the
// address as the customer types, refuses a token account, offers the address that paid only as an explicit choice,
// claims to a Solana wallet once the warning is confirmed, and follows the refund to its transaction.
import { ed25519 } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { findRefund, type NewRefund } from '../../db/repositories/refunds';
import { refundClaimMessage } from '../../domain/refunds/claimMessage';
import { creditedDeposit, pendingRefund, solanaWallet } from '../support/refundClaims';
import { createCheckout, expectSelfContained, openTab, pageBenchWithoutWorker, screenshot, waitForStep } from './pageHarness';

const WEBHOOK_URL = 'http://127.0.0.1:9/webhooks';
// The page polls every 5 s once claimed.
const SOON = { timeout: 15_000 };

const bench = pageBenchWithoutWorker();

/**
 * A session paid from a Solana wallet (seed `seed`) and its merchant's refund waiting for a claim, with the claim token and
 * another wallet (seed `seed + 1`) to claim it to.
 */
async function claimableRefund(seed: number, overrides: Partial<NewRefund> = {}) {
  const session = await createCheckout(bench.service, bench.shop, WEBHOOK_URL);
  const payer = solanaWallet(seed);
  const wallet = solanaWallet(seed + 1);
  await creditedDeposit(bench.service.db.sql, session.sessionId, 'solana', payer.address, seed);
  const { refund, token } = await pendingRefund(
    bench.service.db.sql,
    { sessionId: session.sessionId, merchantId: bench.shop.merchant.id },
    bench.service.config.sessionTokenSecret as string,
    overrides,
  );
  return { payer, wallet, refund, token };
}

describe('refund claim page', () => {
  it('refuses a bad address and a token account, then claims to a Solana wallet and shows the transaction', async () => {
    const { payer, wallet, refund, token } = await claimableRefund(21);
    const unchanged = await findRefund(bench.service.db.sql, refund.id);

    const tab = await openTab(bench.browser);
    const { page } = tab;
    await page.goto(`${bench.service.baseUrl}/refunds/${token}`);
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
    expect(await findRefund(bench.service.db.sql, refund.id)).toEqual(unchanged);

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
    expect(await findRefund(bench.service.db.sql, refund.id)).toEqual(unchanged);

    // The explicit choice fills the payer's address in; the customer then gives their own instead.
    await page.click('#send-back');
    expect(await page.inputValue('#refund-address')).toBe(payer.address);
    await page.fill('#refund-address', wallet.address);
    expect(await page.textContent('#refund-address-error')).toBe('');
    await page.uncheck('#refund-acknowledge');
    await page.click('button[type=submit]');
    expect(await page.textContent('#claim-error')).toBe('Confirm that the address is a wallet you control');
    expect(await findRefund(bench.service.db.sql, refund.id)).toEqual(unchanged);

    await page.check('#refund-acknowledge');
    await page.click('button[type=submit]');
    await waitForStep(page, 'status:claimed');
    expect(await page.textContent('h2')).toBe('Refund claimed');
    expect(await page.textContent('#destination')).toBe(wallet.address);
    expect(await findRefund(bench.service.db.sql, refund.id)).toMatchObject({
      status: 'claimed',
      destination: { chain: 'solana', token: 'USDC', address: wallet.address },
    });
    await screenshot(page, 'refund-02-claimed');

    // As the signer and the workflow would record the payment: the page follows without a reload.
    const signature = '5'.repeat(88);
    await bench.service.db.sql`insert into chain_intents (id, chain, mode) values (${`refund:${refund.id}`}, 'solana', 'test')`;
    await bench.service.db.sql`
      insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, intent_id, status, signature, treasury)
      values (${refund.id}, 'test', 'solana', 'USDC', ${wallet.address}, 12330000, ${`refund:${refund.id}`}, 'confirmed', ${signature}, 'TestTreasury1111111111111111111111111111111')`;
    await bench.service.db.sql`update refunds set status = 'completed', completed_at = now() where id = ${refund.id}`;
    await waitForStep(page, 'status:completed', SOON.timeout);
    expect(await page.textContent('#transaction')).toBe(signature);
    expect(await page.getAttribute('#transaction', 'href')).toBe(`https://explorer.solana.com/tx/${signature}?cluster=devnet`);
    await screenshot(page, 'refund-03-completed');
    expectSelfContained(tab);
    await tab.close();
  });

  it('shows the exact message to sign when the merchant asks for proof, and claims with the signature pasted', async () => {
    const { payer, wallet, refund, token } = await claimableRefund(23, { requireSenderProof: true });
    const tab = await openTab(bench.browser);
    const { page } = tab;
    await page.goto(`${bench.service.baseUrl}/refunds/${token}`);
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
    expect(await findRefund(bench.service.db.sql, refund.id)).toMatchObject({
      status: 'claimed',
      senderProof: { address: payer.address, message },
    });
    expectSelfContained(tab);
    await tab.close();
  });

  it('says so when the link leads to no refund', async () => {
    const tab = await openTab(bench.browser);
    await tab.page.goto(`${bench.service.baseUrl}/refunds/nonsense`);
    expect(await tab.page.textContent('h1')).toBe('Refund not found');
    await tab.close();
  });
});
