// The refund matrix: for each source of a refund (docs/refunds.md#sources) — an overpayment, a late deposit, a deposit
// in the wrong token, a merchant's refund of a completed session, and an underpaid session's deposit given back at its
// expiry because its merchant chose so, and a failed settlement given back by the operator — the customer claims it on the claim page in
// real Chromium, the signer pays it from the local Solana treasury, and the customer's wallet gains exactly the refund
// less the network fee (docs/refunds.md#fees); one payment and one chain intent, the refund completed with its
// webhook, the session's ledger balanced, and reconciliation clean once every refund has landed. One service, chain
// and browser serve every case; the deposits are made one after another, the claims and payments run concurrently.
import { generateKeyPairSigner, type Address as SolanaAddress } from '@solana/kit';
import type { Browser } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordTreasuryOpening } from '../../activities/settlement/treasuryFunding';
import { loadChainsConfig } from '../../config/chains';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import type { LocalChain } from '../../toolchain/localChain/localChain';
import type { LocalSolana } from '../../toolchain/localSolana/localSolana';
import { expectSelfContained, openTab, waitForStep } from '../page/pageHarness';
import { adminCli } from '../support/adminCli';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { moneyHelpers, NOBODY, startBaseWorld, USDC } from '../support/moneyWorld';
import { startTestService, type TestService } from '../support/service';
import { baseTestnetIndexer } from '../support/serviceIndexer';
import type { WebhookReceiver } from '../support/webhookReceiver';

/** REFUND_NETWORK_FEE_USD's default in USD micro-units, deducted from what the customer gets (docs/refunds.md#fees). */
const FEE = USDC(0.01);
const PAID = { timeout: 60_000, interval: 250 };

let service: TestService;
let chain: LocalChain;
let solana: LocalSolana;
let webhooks: WebhookReceiver;
let browser: Browser;
let shop: TestMerchant;
/** A merchant whose sessions last a minute and are refunded, not settled, when they expire underpaid. */
let refunding: TestMerchant;
/** A merchant with no settlement wallet: its settlements fail, and the operator gives the money back. */
let walletless: TestMerchant;
const admin = adminCli(() => service);
let tokens: { usdc: Address; usdt: Address };
let base: ChainIndexer;
const {
  treasuryView,
  pay,
  freshWallet,
  openSession,
  status,
  allEventsOf,
  eventually,
  waitForEvent,
  usdcOnSolana,
  ledgerOf,
  reconciliationDifferences,
} = moneyHelpers(() => ({
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
}));

type Source = 'overpayment' | 'late_deposit' | 'wrong_token' | 'merchant' | 'underpaid_expired' | 'settlement_failed';
interface Case {
  merchant: TestMerchant;
  sessionId: string;
  refundId: string;
  /** The refund's `amount_base_units`, in its own token and chain. */
  amount: bigint;
  token: string;
  chain: string;
}
const cases = new Map<Source, Case>();
/** The underpaid session whose refund opens only at its expiry, a minute after it opened: its case waits for it. */
let expiring: Awaited<ReturnType<typeof openSession>>;
/** The session paid in full whose settlement fails; its case refunds it with the admin CLI. */
let unsettled: Awaited<ReturnType<typeof openSession>>;

beforeAll(async () => {
  let baseEnv: Record<string, string>;
  ({ chain, solana, webhooks, browser, tokens, baseEnv } = await startBaseWorld());
  // REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC keeps its default, `pending`: the merchant refund is backed by a session
  // still underpaid, whose credited deposit is pending for the merchant (docs/refunds.md#funding).
  service = await startTestService({
    env: { ...solana.env, ...solana.signerEnv, ...baseEnv, SOLANA_PAYOUT_MEMO: 'false', SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0' },
  });
  shop = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base', 'solana'], USDT: ['base'] } });
  await freshWallet(shop);
  refunding = await createTestMerchant(service.db.sql, {
    supportedTokens: { USDC: ['base', 'solana'] },
    sessionLifetimeSeconds: 60,
    underpaidExpiry: 'refund',
  });
  await freshWallet(refunding);
  walletless = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base', 'solana'] } });
  base = baseTestnetIndexer(service, loadChainsConfig({ ...baseEnv, INDEXER_WATCH_RELOAD_MS: '1000' }));
  // What the treasury held before the service's first posting, so that reconciliation compares its movements alone.
  await recordTreasuryOpening(treasuryView(), service.db.sql, 'local');

  // Opened and underpaid first, so that most of its minute runs while the other deposits are made.
  expiring = await openSession(refunding, 20);
  await pay(tokens.usdc, expiring.depositAddress, USDC(4));
  unsettled = await openSession(walletless, 20);
  await pay(tokens.usdc, unsettled.depositAddress, unsettled.amount);
  const [overpaid, late, wrongToken, completed, underpaid] = await Promise.all([
    openSession(shop, 20),
    openSession(shop, 20),
    openSession(shop, 20),
    openSession(shop, 20),
    openSession(shop, 20),
  ]);
  const cancelled = await call(service.baseUrl, 'POST', `/checkout/sessions/${late.sessionId}/cancel`, { apiKey: shop.testKey, body: {} });
  expect(cancelled.status).toBe(200);
  await waitForEvent(late.sessionId, 'payment.cancelled');
  await pay(tokens.usdc, overpaid.depositAddress, overpaid.amount + USDC(5));
  await pay(tokens.usdc, late.depositAddress, USDC(20));
  await pay(tokens.usdt, wrongToken.depositAddress, USDC(20));
  await pay(tokens.usdc, completed.depositAddress, completed.amount);
  await pay(tokens.usdc, underpaid.depositAddress, USDC(10));

  await openedBySession('overpayment', overpaid.sessionId);
  await openedBySession('late_deposit', late.sessionId);
  await openedBySession('wrong_token', wrongToken.sessionId);
  await eventually(async () => expect(await status(shop, underpaid.sessionId)).toBe('underpaid'));
  await waitForEvent(completed.sessionId, 'payment.completed');
  const created = await call(service.baseUrl, 'POST', `/checkout/sessions/${completed.sessionId}/refunds`, {
    headers: { 'x-service-user-type': 'checkout', 'x-api-key': shop.testKey, 'Idempotency-Key': 'refund-matrix-merchant' },
    body: { amount_usd: 7.5, reason: 'returned goods' },
  });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ source: 'merchant', status: 'pending_claim', token: 'USDC', chain: 'solana' });
  cases.set('merchant', {
    merchant: shop,
    sessionId: completed.sessionId,
    refundId: created.body.data?.id as string,
    amount: BigInt(created.body.data?.amount_base_units as string),
    token: 'USDC',
    chain: 'solana',
  });
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([browser?.close(), chain?.stop(), solana?.stop(), webhooks?.close(), service?.stop()]);
});

/** The one refund the service opened by itself for the session's deposit, recorded as that source's case. */
async function openedBySession(source: Source, sessionId: string, merchant = shop, wait = eventually): Promise<void> {
  let rows: Array<{ id: string; source: string; amount: string; token: string; chain: string }> = [];
  await wait(async () => {
    rows = await service.db.sql`
      select id, source, amount_base_units::text as amount, token, chain from refunds where session_id = ${sessionId}`;
    expect(rows.map((r) => r.source)).toEqual([source]);
  });
  const [row] = rows;
  cases.set(source, { merchant, sessionId, refundId: row!.id, amount: BigInt(row!.amount), token: row!.token, chain: row!.chain });
}

/** The refund as its merchant reads it. */
async function refundOf(merchant: TestMerchant, refundId: string) {
  const read = await call(service.baseUrl, 'GET', `/checkout/refunds/${refundId}`, { apiKey: merchant.testKey });
  expect(read.status).toBe(200);
  return read.body.data as Record<string, unknown>;
}

/** The customer opens the claim link, chooses USDC on Solana, names their wallet and confirms the warning. */
async function claimInBrowser(claimUrl: string, wallet: SolanaAddress) {
  const tab = await openTab(browser);
  const { page } = tab;
  // The link is on PUBLIC_BASE_URL; the test server answers it on loopback.
  const link = new URL(claimUrl);
  await page.goto(`${service.baseUrl}${link.pathname}${link.search}`);
  await waitForStep(page, 'claim');
  await page.check('input[name=route][value="USDC:solana"]');
  await page.fill('#refund-address', wallet);
  expect(await page.textContent('#refund-address-error')).toBe('');
  await page.check('#refund-acknowledge');
  await page.click('button[type=submit]');
  await waitForStep(page, 'status:claimed');
  return tab;
}

/**
 * Each source's refund, and what its session's deposit brought (`asset`, as the ledger names it) and paid the
 * merchant from the treasury: the holdings the session's ledger ends with.
 */
const SOURCES: Array<{
  source: Source;
  owed: bigint;
  token: string;
  chain: string;
  deposit: { asset: string; amount: bigint };
  merchantPaid: bigint;
}> = [
  {
    source: 'overpayment',
    owed: USDC(5),
    token: 'USDC',
    chain: 'base',
    deposit: { asset: 'usdc:base', amount: USDC(25) },
    merchantPaid: USDC(20),
  },
  {
    source: 'late_deposit',
    owed: USDC(20),
    token: 'USDC',
    chain: 'base',
    deposit: { asset: 'usdc:base', amount: USDC(20) },
    merchantPaid: 0n,
  },
  {
    source: 'wrong_token',
    owed: USDC(20),
    token: 'USDT',
    chain: 'base',
    deposit: { asset: 'usdt:base', amount: USDC(20) },
    merchantPaid: 0n,
  },
  {
    source: 'merchant',
    owed: USDC(7.5),
    token: 'USDC',
    chain: 'solana',
    deposit: { asset: 'usdc:base', amount: USDC(20) },
    merchantPaid: USDC(20),
  },
  {
    // With no payout, the whole deposit is given back, the price's share too (docs/refunds.md#sources).
    source: 'underpaid_expired',
    owed: USDC(4),
    token: 'USDC',
    chain: 'base',
    deposit: { asset: 'usdc:base', amount: USDC(4) },
    merchantPaid: 0n,
  },
  {
    source: 'settlement_failed',
    owed: USDC(20),
    token: 'USDC',
    chain: 'base',
    deposit: { asset: 'usdc:base', amount: USDC(20) },
    merchantPaid: 0n,
  },
];

describe.concurrent('each source: claimed in the browser, paid once by the signer, less the network fee', { timeout: 120_000 }, () => {
  for (const { source, owed, token, chain: owedChain, deposit, merchantPaid } of SOURCES) {
    it(source, async () => {
      // Expiry and settlement run on the session's workflow, not the indexers': these checks poll the service alone.
      const waitLong = async (check: () => unknown) => {
        await vi.waitFor(check, { timeout: 90_000, interval: 500 });
      };
      if (source === 'underpaid_expired') await openedBySession(source, expiring.sessionId, refunding, waitLong);
      if (source === 'settlement_failed') {
        await waitLong(async () => expect(await status(walletless, unsettled.sessionId)).toBe('failed'));
        await admin.json(['settlement', 'refund', paymentIdForSession(unsettled.sessionId), '--confirm']);
        await openedBySession(source, unsettled.sessionId, walletless, waitLong);
      }
      const { merchant, sessionId, refundId, amount, ...asset } = cases.get(source)!;
      expect({ amount, ...asset }).toEqual({ amount: owed, token, chain: owedChain });
      const opened = await refundOf(merchant, refundId);
      expect(opened).toMatchObject({ status: 'pending_claim', source, amount_base_units: owed.toString(), fee_policy: 'deducted' });
      const wallet = (await generateKeyPairSigner()).address;
      expect(await usdcOnSolana(wallet)).toBe(0n);

      const tab = await claimInBrowser(opened.claim_url as string, wallet);
      await vi.waitFor(async () => expect((await refundOf(merchant, refundId)).status).toBe('completed'), PAID);
      // The page follows the refund to its transaction without a reload (it polls every 5 s).
      await waitForStep(tab.page, 'status:completed', 15_000);
      expectSelfContained(tab);
      await tab.close();

      expect(await usdcOnSolana(wallet)).toBe(owed - FEE);
      const payouts = await service.db.sql<Array<Record<string, unknown>>>`
        select destination_address, amount_base_units::text as amount, fee_base_units::text as fee, intent_id, status, signature
        from refund_payouts where refund_id = ${refundId}`;
      expect(payouts).toEqual([
        {
          destination_address: wallet,
          amount: (owed - FEE).toString(),
          fee: FEE.toString(),
          intent_id: `refund:${refundId}`,
          status: 'confirmed',
          signature: expect.any(String),
        },
      ]);
      const signature = payouts[0]!.signature as string;
      expect(
        await service.db
          .sql`select id, status, signature, superseded_signatures from chain_intents where id like ${`refund:${refundId}%`} or signature = ${signature}`,
      ).toEqual([
        { id: `refund:${refundId}`, status: expect.stringMatching(/^(confirmed|finalized)$/), signature, superseded_signatures: [] },
      ]);
      const paid = await refundOf(merchant, refundId);
      expect(paid).toMatchObject({
        status: 'completed',
        transaction_hash: signature,
        fee_usd: 0.01,
        claim_url: null,
        destination: { chain: 'solana', token: 'USDC', address: wallet },
      });

      await vi.waitFor(
        () =>
          expect(allEventsOf(sessionId).filter((e) => e.event === 'refund.completed')).toEqual([
            expect.objectContaining({
              refund: expect.objectContaining({ id: refundId, status: 'completed', transaction_hash: signature, fee_usd: 0.01 }),
            }),
          ]),
        PAID,
      );

      const ledger = await ledgerOf(sessionId);
      expect(ledger.unbalanced).toEqual([]);
      // Nothing is owed back any more, nothing is in flight; the fee is the operator's, and a merchant refund is owed
      // by the merchant (docs/refunds.md#ledger).
      expect(ledger.owners).toEqual({ ...NOBODY, operatorHeld: FEE });
      expect(ledger.holdings).toEqual({
        [`deposits:base ${deposit.asset}`]: deposit.amount,
        [`cross_chain_clearing ${deposit.asset}`]: -deposit.amount,
        'cross_chain_clearing usdc:solana': deposit.amount,
        'treasury:solana usdc:solana': -(merchantPaid + owed - FEE),
        'operator_held:solana usdc:solana': -FEE,
        ...(source === 'merchant' ? { [`merchant_receivable:${merchant.merchant.id} usdc:solana`]: owed } : {}),
      });
    });
  }
});

describe('once every refund landed', () => {
  it('reconciliation finds the chains agreeing with the ledger', async () => {
    expect(await reconciliationDifferences()).toEqual([]);
  });
});
