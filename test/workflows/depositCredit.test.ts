// Crediting an unmatched deposit to its open session from the dashboard (docs/refunds.md#crediting-an-unmatched-deposit),
// on the local chain with the real worker, Temporal and signer: a USDT deposit to a session that chose USDC is kept for
// a refund, the merchant credits it, and the session switches to USDT, completes and pays the merchant, its refund
// cancelled and announced so, nothing owed back any more; a second credit, and the credit of a deposit whose refund
// was claimed, are refused and change nothing.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { Browser } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTreasuryOpening } from '../../activities/settlement/treasuryFunding';
import { loadChainsConfig } from '../../config/chains';
import { listAuditEvents } from '../../db/repositories/auditEvents';
import { moveRefund } from '../../db/repositories/refunds';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import type { LocalChain } from '../../toolchain/localChain/localChain';
import type { LocalSolana } from '../../toolchain/localSolana/localSolana';
import { createDashboardUser, DashboardClient } from '../dashboard/dashboardClient';
import { openDashboardTab, signInThroughPage, waitForView } from '../dashboard/dashboardBrowser';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { CUSTOMER_WALLET } from '../support/refunds';
import { moneyHelpers, NOBODY, startBaseWorld, USDC } from '../support/moneyWorld';
import { startTestService, type TestService } from '../support/service';
import { baseTestnetIndexer } from '../support/serviceIndexer';
import type { WebhookReceiver } from '../support/webhookReceiver';
import { creditDepositUpdate } from '../../workflows/messages';

let service: TestService;
let chain: LocalChain;
let solana: LocalSolana;
let webhooks: WebhookReceiver;
let browser: Browser;
let shop: TestMerchant;
let tokens: { usdc: Address; usdt: Address };
let base: ChainIndexer;
const dashboard = () => new DashboardClient(service.baseUrl);
const { treasuryView, pay, freshWallet, openSession, status, allEventsOf, eventually, waitForEvent, usdcOnSolana, ledgerOf } = moneyHelpers(
  () => ({
    service,
    chain,
    solana,
    webhooks,
    indexers: [base],
    evmTokens: [
      {
        chain: 'base',
        tokens: [
          { symbol: 'USDC', address: tokens.usdc },
          { symbol: 'USDT', address: tokens.usdt },
        ],
      },
    ],
  }),
);

beforeAll(async () => {
  let baseEnv: Record<string, string>;
  ({ chain, solana, webhooks, browser, tokens, baseEnv } = await startBaseWorld());
  service = await startTestService({
    env: { ...solana.env, ...solana.signerEnv, ...baseEnv, SOLANA_PAYOUT_MEMO: 'false', SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0' },
  });
  shop = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'], USDT: ['base'] } });
  await createDashboardUser(service.db.sql, shop.merchant.id, 'credit@example.com');
  base = baseTestnetIndexer(service, loadChainsConfig({ ...baseEnv, INDEXER_WATCH_RELOAD_MS: '1000' }));
  await recordTreasuryOpening(treasuryView(), service.db.sql, 'local');
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([browser?.close(), chain?.stop(), solana?.stop(), webhooks?.close(), service?.stop()]);
});

/** A USDC-on-base session of 20 USD paid in USDT on base: the deposit kept for a refund, and that refund. */
async function paidInTheWrongToken() {
  const session = await openSession(shop, 20);
  const sent = await pay(tokens.usdt, session.depositAddress, USDC(20));
  let refund: { id: string; status: string } | undefined;
  await eventually(async () => {
    [refund] = await service.db.sql<Array<{ id: string; status: string }>>`
      select id, status from refunds where session_id = ${session.sessionId} and source = 'wrong_token'`;
    expect(refund?.status).toBe('pending_claim');
  });
  const [deposit] = await service.db.sql<Array<{ tx_hash: string; log_index: number }>>`
    select tx_hash, log_index from deposits where session_id = ${session.sessionId} and tx_hash = ${sent.hash}`;
  return { ...session, refundId: refund!.id, deposit: { chain: 'base', tx_hash: deposit!.tx_hash, log_index: deposit!.log_index } };
}

/** What the refund, the deposit row and the ledger hold: compared before and after a refused credit. */
async function snapshot(sessionId: string, refundId: string) {
  const [refund] = await service.db.sql`select status, status_reason from refunds where id = ${refundId}`;
  const deposits = await service.db.sql`select tx_hash, credited, late from deposits where session_id = ${sessionId} order by tx_hash`;
  const [payment] = await service.db
    .sql`select token, chain, received_base_units::text as received from payments where session_id = ${sessionId}`;
  return { refund, deposits, payment, ledger: await ledgerOf(sessionId), status: await status(shop, sessionId) };
}

describe('crediting an unmatched deposit from the dashboard', { timeout: 150_000 }, () => {
  it('credits a wrong-token deposit to its open session: the session completes in that token, the merchant is paid, the refund cancelled', async () => {
    const wallet = await freshWallet(shop);
    const { sessionId, refundId, deposit } = await paidInTheWrongToken();
    expect(await status(shop, sessionId)).toBe('awaiting_payment');
    const client = dashboard();
    await client.signIn('credit@example.com');

    const before = await client.request('GET', `/api/test/sessions/${sessionId}`);
    expect(before.body.data.unmatched_deposits).toEqual([
      expect.objectContaining({
        ...deposit,
        token: 'USDT',
        credited: false,
        refund: { refund_id: refundId, status: 'pending_claim', source: 'wrong_token' },
        creditable: true,
        credit_refusal: null,
      }),
    ]);

    const credited = await client.request('POST', `/api/test/sessions/${sessionId}/deposit-credits`, deposit);
    expect(credited.status).toBe(200);
    expect(credited.body.data.payment).toMatchObject({ token: 'USDT', chain: 'base' });

    await waitForEvent(sessionId, 'payment.completed');
    expect(await status(shop, sessionId)).toBe('completed');
    await eventually(() => expect(allEventsOf(sessionId).map((e) => e.event)).toContain('refund.cancelled'));
    const [refund] = await service.db.sql`select status, status_reason from refunds where id = ${refundId}`;
    expect(refund).toEqual({ status: 'cancelled', status_reason: 'credited to the session by dashboard user credit@example.com' });
    expect(await service.db.sql`select credited, late from deposits where session_id = ${sessionId}`).toEqual([
      { credited: true, late: false },
    ]);
    await eventually(async () => expect(await usdcOnSolana(wallet)).toBe(USDC(20)));

    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual(NOBODY);
    expect(ledger.holdings).toEqual({
      'deposits:base usdt:base': USDC(20),
      'cross_chain_clearing usdt:base': -USDC(20),
      'cross_chain_clearing usdc:solana': USDC(20),
      'treasury:solana usdc:solana': -USDC(20),
    });
    const audited = await listAuditEvents(service.db.sql, shop.merchant.id);
    expect(audited.find((e) => e.action === 'deposit.credit')).toMatchObject({
      changes: { session_id: sessionId, ...deposit, refund_id: refundId },
    });

    const after = await snapshot(sessionId, refundId);
    const again = await client.request('POST', `/api/test/sessions/${sessionId}/deposit-credits`, deposit);
    expect(again.status).toBe(409);
    expect(await snapshot(sessionId, refundId)).toEqual(after);
    expect(
      (await client.request('POST', `/api/test/sessions/${sessionId}/deposit-credits`, { ...deposit, log_index: deposit.log_index + 7 }))
        .status,
    ).toBe(404);
  });

  it('refuses to credit a deposit whose refund the customer claimed, and changes nothing', async () => {
    const { sessionId, refundId, deposit } = await paidInTheWrongToken();
    const claimed = await moveRefund(service.db.sql, refundId, 'claim', {
      destination: { chain: 'solana', token: 'USDC', address: CUSTOMER_WALLET },
    });
    expect(claimed.ok).toBe(true);
    const client = dashboard();
    await client.signIn('credit@example.com');
    const detail = await client.request('GET', `/api/test/sessions/${sessionId}`);
    expect(detail.body.data.unmatched_deposits).toEqual([
      expect.objectContaining({ creditable: false, credit_refusal: 'Its refund is claimed, no longer waiting for a claim' }),
    ]);

    const before = await snapshot(sessionId, refundId);
    const refused = await client.request('POST', `/api/test/sessions/${sessionId}/deposit-credits`, deposit);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('Its refund is claimed, no longer waiting for a claim');
    expect(await snapshot(sessionId, refundId)).toEqual(before);
    expect(before.status).toBe('awaiting_payment');

    // The workflow decides on its own, whatever asks it: the same update sent past the dashboard's check is refused too.
    const direct = service.temporal.workflow.getHandle(sessionId).executeUpdate(creditDepositUpdate, {
      args: [{ chain: 'base', txHash: deposit.tx_hash, logIndex: deposit.log_index, by: 'a test' }],
    });
    await expect(direct).rejects.toThrow(WorkflowUpdateFailedError);
    await expect(direct.catch((error: WorkflowUpdateFailedError) => error.cause)).resolves.toMatchObject({
      type: 'DepositCreditRefused',
      message: 'Its refund is claimed, no longer waiting for a claim',
    });
    expect(await snapshot(sessionId, refundId)).toEqual(before);
  });

  it('in Chromium: the session page shows the unmatched deposit with its refund, and Credit to this session credits it', async () => {
    await freshWallet(shop);
    const { sessionId, refundId, deposit } = await paidInTheWrongToken();
    const tab = await openDashboardTab(browser);
    const { page } = tab;
    await signInThroughPage(page, service.baseUrl, 'credit@example.com');
    await waitForView(page, 'sessions');
    await page.goto(`${service.baseUrl}/dashboard/test/sessions/${sessionId}`);
    await waitForView(page, 'session');
    const item = page.locator(`li.unmatched-deposit[data-tx-hash="${deposit.tx_hash}"]`);
    await expect.poll(() => item.textContent()).toContain(`refund ${refundId} (wrong_token, pending_claim)`);
    await item.getByRole('button', { name: 'Credit to this session' }).click();
    await expect.poll(() => item.textContent(), { timeout: 15_000 }).toContain('(wrong_token, cancelled) Credited to this session');
    expect(await page.getByRole('button', { name: 'Credit to this session' }).count()).toBe(0);
    expect(await page.locator('.card dl .pair dd').first().textContent()).toMatch(/^(completed|awaiting_payment|confirming)/);
    await waitForEvent(sessionId, 'payment.completed');
    await tab.close();
  });
});
