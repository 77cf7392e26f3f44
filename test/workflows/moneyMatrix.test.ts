// The money matrix: each kind of payment driven through the real service (HTTP API, session and signer workers on
// Temporal, the EVM indexer on a local Hardhat chain, payouts from the local Solana treasury), and for each the
// session's final status, the webhook a loopback merchant endpoint received, who owns every unit by the session's
// ledger postings (docs/settlement.md#who-owns-each-unit), that those postings balance, and that reconciliation finds
// the chains agreeing with the ledger. One service and chain serve every row, in order.
import type { Address as SolanaAddress } from '@solana/kit';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resettlePayment } from '../../bin/admin/settlementRemedies';
import { recordTreasuryOpening } from '../../activities/settlement/treasuryFunding';
import { loadChainsConfig } from '../../config/chains';
import { bankTransferReference } from '../../domain/session/bankTransfer';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { adminCli } from '../support/adminCli';
import { createBankAccount, createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { baseTestnetIndexer, testnetIndexer } from '../support/serviceIndexer';
import { moneyHelpers, NOBODY, PAYER, USDC } from '../support/moneyWorld';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

let service: TestService;
let chain: LocalChain;
let solana: LocalSolana;
let webhooks: WebhookReceiver;
let shop: TestMerchant;
/** A merchant with a bank account: its sessions offer the bank method. */
let banked: TestMerchant;
const admin = adminCli(() => service);
const {
  treasuryView,
  pay,
  freshWallet,
  openSession,
  status,
  allEventsOf,
  eventsOf,
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
  indexers: [base, arbitrum],
  evmTokens: [
    {
      chain: 'base',
      tokens: [
        { symbol: 'USDC', address: tokens.usdc },
        { symbol: 'USDT', address: tokens.usdt },
      ],
    },
    { chain: 'arbitrum', tokens: [{ symbol: 'USDC', address: tokens.arbitrumUsdc }] },
  ],
}));
/** A merchant whose sessions last the shortest lifetime a merchant may set: the underpaid row's expiry. */
let shortLived: TestMerchant;
let tokens: { usdc: Address; usdt: Address; arbitrumUsdc: Address };
let base: ChainIndexer;
let arbitrum: ChainIndexer;
/**
 * The two expiry rows wait out a session's minute each. Their sessions are opened and underpaid before any row, and
 * their rows run first, so the two minutes run together: the underpaid row's session and wallet, and its deposit.
 */
let shortSession: Awaited<ReturnType<typeof openSession>> & { wallet: SolanaAddress; paid: bigint };
/** A short-lived merchant that chose to refund, not settle, what an underpaid session received by its expiry. */
let refunding: TestMerchant;
/** Its session and wallet, and its two deposits, the second sent once the first made the session underpaid. */
let refundingSession: Awaited<ReturnType<typeof openSession>> & { wallet: SolanaAddress; deposits: [{ hash: string }, { hash: string }] };

beforeAll(async () => {
  [chain, solana, webhooks] = await Promise.all([createLocalChain(), startLocalSolana({ port: 0 }), startWebhookReceiver()]);
  tokens = {
    usdc: await chain.deployToken({ symbol: 'USDC', decimals: 6 }),
    usdt: await chain.deployToken({ symbol: 'USDT', decimals: 6 }),
    // arbitrum's test network is served by the same node, with its own USDC contract: a transfer there is not one on base.
    arbitrumUsdc: await chain.deployToken({ symbol: 'USDC', decimals: 6 }),
  };
  for (const token of Object.values(tokens)) await chain.mint(token, chain.account(PAYER).address, 10n ** 12n);
  const startBlock = ((await chain.blockNumber()) + 1n).toString();
  const baseEnv = {
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
    TOKEN_USDT_BASE_TESTNET: `${tokens.usdt}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: startBlock,
  };
  const arbitrumEnv = {
    RPC_URLS_ARBITRUM_TESTNET: chain.rpcUrl,
    CHAIN_ID_ARBITRUM_TESTNET: String(chain.chainId),
    TOKEN_USDC_ARBITRUM_TESTNET: `${tokens.arbitrumUsdc}:6`,
    INDEXER_START_BLOCK_ARBITRUM_TESTNET: startBlock,
  };
  service = await startTestService({
    env: { ...solana.env, ...solana.signerEnv, ...baseEnv, SOLANA_PAYOUT_MEMO: 'false', SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0' },
  });
  shop = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base', 'solana'], USDT: ['base'] } });
  banked = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] } });
  await createBankAccount(service.db.sql, banked.merchant.id, 'EUR');
  shortLived = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] }, sessionLifetimeSeconds: 60 });
  refunding = await createTestMerchant(service.db.sql, {
    supportedTokens: { USDC: ['base'] },
    sessionLifetimeSeconds: 60,
    underpaidExpiry: 'refund',
  });
  // The indexers run without the LISTEN that tells them of a new watch at once: they reload their watches each second.
  const reload = { INDEXER_WATCH_RELOAD_MS: '1000' };
  base = baseTestnetIndexer(service, loadChainsConfig({ ...baseEnv, ...reload }));
  arbitrum = testnetIndexer(service, loadChainsConfig({ ...arbitrumEnv, ...reload }), 'arbitrum');
  // What the treasury held before the service's first posting, so that reconciliation compares its movements alone.
  await recordTreasuryOpening(treasuryView(), service.db.sql, 'local');
  const [shortWallet, refundingWallet] = [await freshWallet(shortLived), await freshWallet(refunding)];
  const [short, refund] = [await openSession(shortLived, 10), await openSession(refunding, 10)];
  await pay(tokens.usdc, short.depositAddress, USDC(4));
  const first = await pay(tokens.usdc, refund.depositAddress, USDC(3));
  await waitForEvent(refund.sessionId, 'payment.underpaid');
  const second = await pay(tokens.usdc, refund.depositAddress, USDC(2));
  // Both deposits are in the ledger before any row asks reconciliation whether the chain agrees with it.
  await eventually(async () =>
    expect(await service.db.sql`select 1 from deposits where session_id = ${refund.sessionId} and credited`).toHaveLength(2),
  );
  shortSession = { ...short, wallet: shortWallet, paid: USDC(4) };
  refundingSession = { ...refund, wallet: refundingWallet, deposits: [first, second] };
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([chain?.stop(), solana?.stop(), webhooks?.close(), service?.stop()]);
});

/** A session of $20 of the bank merchant, under its test or live key. */
async function bankSession(mode: 'test' | 'live', webhookUrl: string) {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: mode === 'test' ? banked.testKey : banked.liveKey,
    body: sessionRequest(banked.merchant.id, { amount_usd: 20, webhook_url: webhookUrl }),
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.data?.session_id as string;
  const read = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, {
    apiKey: mode === 'test' ? banked.testKey : banked.liveKey,
  });
  expect(read.body.data?.supported_methods).toEqual({ crypto: true, bank: true });
  return { sessionId };
}

/** The operator confirms the transfer as the admin CLI does. */
async function markReceived(sessionId: string, amountUsd: string): Promise<void> {
  const reference = `Order ${bankTransferReference(sessionId)}`;
  await admin.json([
    'bank',
    'mark-received',
    '--session',
    sessionId,
    '--amount-usd',
    amountUsd,
    '--reference',
    reference,
    '--by',
    'matrix',
  ]);
}

async function settlementsOf(sessionId: string) {
  return service.db.sql<{ provider: string; amount: string }[]>`
    select provider, amount_usdc_base_units::text as amount from settlements where session_id = ${sessionId} order by provider`;
}

/**
 * The one refund the service opened by itself for what the session owes back (docs/refunds.md#sources): its row, the
 * workflow's `refund.created`, and for money no session could credit `payment.unmatched_deposit` naming the deposit.
 */
async function expectOneAutomaticRefund(sessionId: string, owed: { source: string; txHash: string; chain: string; amount: bigint }) {
  const refunds = await service.db.sql<{ id: string; source: string; deposit_tx_hash: string; amount: string; status: string }[]>`
    select id, source, deposit_tx_hash, amount_base_units::text as amount, status from refunds where session_id = ${sessionId}`;
  expect(refunds).toEqual([
    { id: expect.any(String), source: owed.source, deposit_tx_hash: owed.txHash, amount: owed.amount.toString(), status: 'pending_claim' },
  ]);
  const refundId = refunds[0]!.id;
  const unmatched = owed.source !== 'overpayment';
  // Each event is its own delivery: they may arrive in either order.
  const refundEvents = () =>
    new Map(
      allEventsOf(sessionId)
        .filter((e) => !('status' in e))
        .map((e) => [e.event as string, e]),
    );
  await eventually(() =>
    expect([...refundEvents().keys()].sort()).toEqual(unmatched ? ['payment.unmatched_deposit', 'refund.created'] : ['refund.created']),
  );
  expect(refundEvents().get('refund.created')).toMatchObject({
    refund: { id: refundId, status: 'pending_claim', source: owed.source, chain: owed.chain, amount_base_units: owed.amount.toString() },
  });
  if (unmatched) {
    expect(refundEvents().get('payment.unmatched_deposit')).toMatchObject({
      deposit: { chain: owed.chain, transaction_hash: owed.txHash, amount_base_units: owed.amount.toString() },
      refund_id: refundId,
    });
  }
}

/**
 * A session untouched by a deposit it cannot credit: still awaiting payment, no webhook, the deposit's units owed back
 * to the customer (`chainAsset`: `<chain> <asset>`), balanced and reconciled.
 */
async function expectStillWaitingWithRefundDue(
  sessionId: string,
  chainAsset: string,
  amount: bigint,
  refund: { source: string; txHash: string },
): Promise<void> {
  expect(await reconciliationDifferences()).toEqual([]);
  expect(await status(shop, sessionId)).toBe('awaiting_payment');
  expect(eventsOf(sessionId)).toEqual([]);
  const ledger = await ledgerOf(sessionId);
  expect(ledger.unbalanced).toEqual([]);
  expect(ledger.holdings).toEqual({ [`deposits:${chainAsset}`]: amount, [`refund_due:${chainAsset}`]: -amount });
  expect(ledger.owners).toEqual({ ...NOBODY, refundDue: amount });
  await expectOneAutomaticRefund(sessionId, { ...refund, chain: chainAsset.split(' ')[0]!, amount });
}

describe('the money matrix: every unit has an owner', { timeout: 120_000 }, () => {
  it('underpaid then expired: stays underpaid, and at expiry the merchant is paid what arrived', async () => {
    const { sessionId, wallet, paid } = shortSession;
    const event = await waitForEvent(sessionId, 'payment.underpaid');
    expect(event).toMatchObject({ status: 'underpaid', amount: { token_expected: '10.000000', token_received: '4.000000' } });
    expect(event).not.toHaveProperty('settlement');
    // Until expiry settles it, what arrived is pending for the merchant, and the chain agrees with the ledger.
    if (!eventsOf(sessionId).some((e) => e.settlement)) {
      const waiting = await ledgerOf(sessionId);
      expect(waiting.owners).toEqual({ ...NOBODY, pendingForMerchant: paid });
      expect(await reconciliationDifferences()).toEqual([]);
    }

    await eventually(async () => expect(await usdcOnSolana(wallet)).toBe(paid), 90_000);
    await eventually(() => expect(eventsOf(sessionId).filter((e) => e.event === 'payment.underpaid' && e.settlement)).toHaveLength(1));
    expect(eventsOf(sessionId).at(-1)).toMatchObject({ status: 'underpaid', settlement: { amount_usdc: '4.000000' } });
    expect(await status(shortLived, sessionId)).toBe('underpaid');
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual(NOBODY);
    expect(ledger.holdings).toEqual({
      'deposits:base usdc:base': paid,
      'cross_chain_clearing usdc:base': -paid,
      'cross_chain_clearing usdc:solana': paid,
      'treasury:solana usdc:solana': -paid,
    });
    expect(await reconciliationDifferences()).toEqual([]);
  });

  it('underpaid then expired, the merchant chose refund: expired, nothing settled, one refund per deposit', async () => {
    const {
      sessionId,
      wallet,
      deposits: [first, second],
    } = refundingSession;
    await eventually(async () => expect(await status(refunding, sessionId)).toBe('expired'), 90_000);
    const expired = await waitForEvent(sessionId, 'payment.expired');
    expect(expired).not.toHaveProperty('settlement');
    const refunds = await service.db.sql<{ source: string; deposit_tx_hash: string; amount: string; status: string }[]>`
      select source, deposit_tx_hash, amount_base_units::text as amount, status from refunds where session_id = ${sessionId}
      order by amount_base_units desc`;
    expect(refunds).toEqual([
      { source: 'underpaid_expired', deposit_tx_hash: first.hash, amount: USDC(3).toString(), status: 'pending_claim' },
      { source: 'underpaid_expired', deposit_tx_hash: second.hash, amount: USDC(2).toString(), status: 'pending_claim' },
    ]);
    await eventually(() =>
      expect(
        allEventsOf(sessionId)
          .filter((e) => e.event === 'refund.created')
          .map((e) => (e.refund as { source: string }).source),
      ).toEqual(['underpaid_expired', 'underpaid_expired']),
    );
    expect(eventsOf(sessionId).map((e) => e.event)).toEqual([
      'payment.confirming',
      'payment.underpaid',
      'payment.confirming',
      'payment.underpaid',
      'payment.expired',
    ]);
    expect(await settlementsOf(sessionId)).toEqual([]);
    expect(await service.db.sql`select 1 from payouts where payment_id = ${paymentIdForSession(sessionId)}`).toEqual([]);
    expect(await usdcOnSolana(wallet)).toBe(0n);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual({ ...NOBODY, refundDue: USDC(5) });
    expect(ledger.holdings).toEqual({ 'deposits:base usdc:base': USDC(5), 'refund_due:base usdc:base': -USDC(5) });
    expect(await reconciliationDifferences()).toEqual([]);
  });
  it('exact: completed, the merchant paid the session amount, nothing owed to anyone', async () => {
    const wallet = await freshWallet(shop);
    const { sessionId, depositAddress, amount } = await openSession(shop, 20);
    await pay(tokens.usdc, depositAddress, amount);
    await eventually(async () => expect(await status(shop, sessionId)).toBe('completed'));

    const event = await waitForEvent(sessionId, 'payment.completed');
    expect(event).toMatchObject({ status: 'completed', settlement: { amount_usdc: '20.000000', provider: 'solana-treasury' } });
    expect(await usdcOnSolana(wallet)).toBe(amount);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual(NOBODY);
    expect(ledger.holdings).toEqual({
      'deposits:base usdc:base': amount,
      'cross_chain_clearing usdc:base': -amount,
      'cross_chain_clearing usdc:solana': amount,
      'treasury:solana usdc:solana': -amount,
    });
    expect(await reconciliationDifferences()).toEqual([]);
  });

  it('overpaid beyond tolerance: overpaid, the merchant paid the session amount, the excess owed to the customer', async () => {
    const wallet = await freshWallet(shop);
    const { sessionId, depositAddress, amount } = await openSession(shop, 20);
    const excess = USDC(5);
    const sent = await pay(tokens.usdc, depositAddress, amount + excess);
    await eventually(async () => expect(await status(shop, sessionId)).toBe('overpaid'));

    const event = await waitForEvent(sessionId, 'payment.overpaid');
    expect(event).toMatchObject({ amount: { token_received: '25.000000' }, settlement: { amount_usdc: '20.000000' } });
    expect(await usdcOnSolana(wallet)).toBe(amount);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual({ ...NOBODY, refundDue: excess });
    expect(ledger.holdings).toEqual({
      'deposits:base usdc:base': amount + excess,
      'refund_due:base usdc:base': -excess,
      'cross_chain_clearing usdc:base': -amount,
      'cross_chain_clearing usdc:solana': amount,
      'treasury:solana usdc:solana': -amount,
    });
    expect(await reconciliationDifferences()).toEqual([]);
    await expectOneAutomaticRefund(sessionId, { source: 'overpayment', txHash: sent.hash, chain: 'base', amount: excess });
  });

  it('late deposit: a cancelled session keeps its status, what arrived after it closed is owed to the customer', async () => {
    const wallet = await freshWallet(shop);
    const { sessionId, depositAddress } = await openSession(shop, 20);
    const cancelled = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/cancel`, { apiKey: shop.testKey, body: {} });
    expect(cancelled.status).toBe(200);
    await waitForEvent(sessionId, 'payment.cancelled');
    const late = USDC(20);
    const sent = await pay(tokens.usdc, depositAddress, late);
    await eventually(async () =>
      expect(await service.db.sql`select stage, credited, late from deposits where tx_hash = ${sent.hash}`).toEqual([
        { stage: 'confirmed', credited: false, late: true },
      ]),
    );

    expect(await reconciliationDifferences()).toEqual([]);
    expect(await status(shop, sessionId)).toBe('cancelled');
    expect(eventsOf(sessionId).map((e) => e.event)).toEqual(['payment.cancelled']);
    expect(await usdcOnSolana(wallet)).toBe(0n);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual({ ...NOBODY, refundDue: late });
    expect(ledger.holdings).toEqual({ 'deposits:base usdc:base': late, 'refund_due:base usdc:base': -late });
    await expectOneAutomaticRefund(sessionId, { source: 'late_deposit', txHash: sent.hash, chain: 'base', amount: late });
  });

  it('wrong token: USDT sent for a USDC payment is owed to the customer, the session still waits for its USDC', async () => {
    const { sessionId, depositAddress } = await openSession(shop, 20);
    const sent = await pay(tokens.usdt, depositAddress, USDC(20));
    await eventually(async () =>
      expect(await service.db.sql`select token, credited, late from deposits where tx_hash = ${sent.hash}`).toEqual([
        { token: 'USDT', credited: false, late: true },
      ]),
    );

    await expectStillWaitingWithRefundDue(sessionId, 'base usdt:base', USDC(20), { source: 'wrong_token', txHash: sent.hash });
  });

  it('wrong EVM chain: USDC sent on arbitrum to the base deposit address is owed to the customer', async () => {
    const { sessionId, depositAddress } = await openSession(shop, 20);
    const sent = await pay(tokens.arbitrumUsdc, depositAddress, USDC(20));
    await eventually(async () =>
      expect(await service.db.sql`select chain, credited, late from deposits where tx_hash = ${sent.hash}`).toEqual([
        { chain: 'arbitrum', credited: false, late: true },
      ]),
    );

    await expectStillWaitingWithRefundDue(sessionId, 'arbitrum usdc:arbitrum', USDC(20), { source: 'wrong_chain', txHash: sent.hash });
  });

  it('unrouted live pair: a live session never offers USDC on base, so no money can reach it there', async () => {
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: shop.liveKey,
      body: sessionRequest(shop.merchant.id, { amount_usd: 20 }),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    const read = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: shop.liveKey });
    expect(read.body.data?.supported_tokens).toEqual({ tokens: { USDC: { chain: ['solana'] } } });
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: shop.liveKey,
      body: { session_id: sessionId, token: 'USDC', chain: 'base' },
    });
    expect(selected.status).toBe(400);
    expect(selected.body.details?.validation_errors).toEqual([
      'chain: USDC on base is not supported for this session; supported: USDC on solana',
    ]);

    expect(read.body.data?.status).toBe('pending');
    expect(await service.db.sql`select count(*)::int as n from deposit_addresses where session_id = ${sessionId}`).toEqual([{ n: 0 }]);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.holdings).toEqual({});
    expect(ledger.owners).toEqual(NOBODY);
  });

  it('refused payout: failed with its webhook, the money pending for the merchant while it waits; resettled once the cause is fixed, paid once', async () => {
    const walletless = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] } });
    const { sessionId, depositAddress, amount } = await openSession(walletless, 20);
    await pay(tokens.usdc, depositAddress, amount);
    await eventually(async () => expect(await status(walletless, sessionId)).toBe('failed'));

    const failed = await waitForEvent(sessionId, 'payment.failed');
    expect(failed).toMatchObject({ status: 'failed', amount: { token_received: '20.000000' } });
    expect(failed).not.toHaveProperty('settlement');
    const paymentId = paymentIdForSession(sessionId);
    expect(await service.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
    // Owed to the merchant and held at the deposit address, pending: no payable is posted until a payout is accepted.
    expect(await chain.tokenBalance(tokens.usdc, depositAddress)).toBe(amount);
    const waiting = await ledgerOf(sessionId);
    expect(waiting.holdings).toEqual({ 'deposits:base usdc:base': amount, 'merchant_pending:base usdc:base': -amount });
    expect(waiting.owners).toEqual({ ...NOBODY, pendingForMerchant: amount });
    expect(await reconciliationDifferences()).toEqual([]);

    const wallet = await freshWallet(walletless);
    const deps = { sql: service.db.sql, client: service.temporal, operator: 'matrix' };
    expect(await resettlePayment(deps, paymentId)).toMatchObject({ kind: 'started', sessionId });
    await eventually(async () => expect(await status(walletless, sessionId)).toBe('completed'));
    const completed = await waitForEvent(sessionId, 'payment.completed');
    expect(completed).toMatchObject({ settlement: { amount_usdc: '20.000000', provider: 'solana-treasury' } });
    expect(await usdcOnSolana(wallet)).toBe(amount);
    expect(await resettlePayment(deps, paymentId)).toMatchObject({ kind: 'already_settled' });
    expect(await usdcOnSolana(wallet)).toBe(amount);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual(NOBODY);
    expect(ledger.holdings).toEqual({
      'deposits:base usdc:base': amount,
      'cross_chain_clearing usdc:base': -amount,
      'cross_chain_clearing usdc:solana': amount,
      'treasury:solana usdc:solana': -amount,
    });
    expect(await reconciliationDifferences()).toEqual([]);
  });

  it('bank, test key: completed, settled with provider bank, the money in the merchant account, nothing posted', async () => {
    const { sessionId } = await bankSession('test', webhooks.url);
    await markReceived(sessionId, '20.00');
    await eventually(async () => expect(await status(banked, sessionId)).toBe('completed'));

    const event = await waitForEvent(sessionId, 'payment.completed');
    expect(event).toMatchObject({ status: 'completed', livemode: false, settlement: { provider: 'bank', amount_usdc: '20.000000' } });
    expect(await settlementsOf(sessionId)).toEqual([{ provider: 'bank', amount: '20000000' }]);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.holdings).toEqual({});
    expect(ledger.owners).toEqual(NOBODY);
    expect(await reconciliationDifferences()).toEqual([]);
  });

  it('bank, live key: completed, settled with provider bank, nothing moves through the treasury', async () => {
    // A live webhook goes to public https endpoints only: its body is read where the service keeps it.
    const { sessionId } = await bankSession('live', 'https://merchant.example/webhooks/checkout');
    await markReceived(sessionId, '20.00');
    await eventually(async () => expect(await status(banked, sessionId, 'live')).toBe('completed'));

    // The read model can say completed a moment before the delivery row is written.
    let delivery: { body: string } | undefined;
    await eventually(async () => {
      [delivery] = await service.db.sql<{ body: string }[]>`
        select body from webhook_deliveries where session_id = ${sessionId} and event = 'payment.completed'`;
      expect(delivery).toBeDefined();
    });
    expect(JSON.parse(delivery!.body)).toMatchObject({
      status: 'completed',
      livemode: true,
      settlement: { provider: 'bank', amount_usdc: '20.000000' },
    });
    expect(await settlementsOf(sessionId)).toEqual([{ provider: 'bank', amount: '20000000' }]);
    expect(await service.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentIdForSession(sessionId)}`).toEqual([
      { n: 0 },
    ]);
    const ledger = await ledgerOf(sessionId);
    expect(ledger.holdings).toEqual({});
    expect(ledger.owners).toEqual(NOBODY);
    expect(await reconciliationDifferences()).toEqual([]);
  });

  it('crypto and bank in one session: completed, the bank part settled with provider bank, the crypto part paid out', async () => {
    const wallet = await freshWallet(banked);
    const { sessionId, depositAddress } = await openSession(banked, 20);
    await pay(tokens.usdc, depositAddress, USDC(12));
    await eventually(async () => expect(await status(banked, sessionId)).toBe('underpaid'));
    await markReceived(sessionId, '8.00');
    await eventually(async () => expect(await status(banked, sessionId)).toBe('completed'));

    expect(await waitForEvent(sessionId, 'payment.completed')).toMatchObject({ status: 'completed' });
    expect(await settlementsOf(sessionId)).toEqual([
      { provider: 'bank', amount: '8000000' },
      { provider: 'solana-treasury', amount: '12000000' },
    ]);
    expect(await usdcOnSolana(wallet)).toBe(USDC(12));
    const ledger = await ledgerOf(sessionId);
    expect(ledger.unbalanced).toEqual([]);
    expect(ledger.owners).toEqual(NOBODY);
    expect(ledger.holdings).toEqual({
      'deposits:base usdc:base': USDC(12),
      'cross_chain_clearing usdc:base': -USDC(12),
      'cross_chain_clearing usdc:solana': USDC(12),
      'treasury:solana usdc:solana': -USDC(12),
    });
    expect(await reconciliationDifferences()).toEqual([]);
  });

  it('bank transfer after the session closed: the session keeps its status, the receipt kept as owed back, never credited', async () => {
    const { sessionId } = await bankSession('test', webhooks.url);
    const cancelled = await call(service.baseUrl, 'POST', `/checkout/sessions/${sessionId}/cancel`, { apiKey: banked.testKey, body: {} });
    expect(cancelled.status).toBe(200);
    await waitForEvent(sessionId, 'payment.cancelled');
    await markReceived(sessionId, '20.00');

    // The session's workflow still runs after closing (it keeps a grace for late deposits) and records the receipt.
    await eventually(async () =>
      expect(
        await service.db.sql`select amount_usd_cents::text as cents, credited from bank_receipts where session_id = ${sessionId}`,
      ).toEqual([{ cents: '2000', credited: false }]),
    );
    expect(await status(banked, sessionId)).toBe('cancelled');
    expect(eventsOf(sessionId).map((e) => e.event)).toEqual(['payment.cancelled']);
    expect(await settlementsOf(sessionId)).toEqual([]);
    expect((await ledgerOf(sessionId)).holdings).toEqual({});
    expect(await reconciliationDifferences()).toEqual([]);
  });
});
