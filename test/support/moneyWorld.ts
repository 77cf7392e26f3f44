// What the tests that drive money through the real service share (test/workflows/moneyMatrix.test.ts,
// test/workflows/refundMatrix.test.ts, test/workflows/depositCredit.test.ts): the local chains they run on; payments from a funded account on the local Hardhat chain, seen by the
// service's indexers; sessions opened through the API with the loopback webhook; who owns every unit by a session's
// ledger postings (docs/settlement.md#who-owns-each-unit); and reconciliation of the chains against the ledger.
import { createSolanaRpc, generateKeyPairSigner, type Address as SolanaAddress } from '@solana/kit';
import type { Address } from 'viem';
import { expect, vi } from 'vitest';
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { postRefundOnlyDeposits } from '../../db/repositories/depositLedger';
import { paymentLedgerEntries } from '../../db/repositories/ledgerExplanation';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import { holdingsOf } from '../../domain/ledger/ledgerExplanation';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import type { Browser } from 'playwright-core';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import { sessionRequest, type TestMerchant } from './factories';
import { call } from './http';
import type { TestService } from './service';
import { launchBrowser } from '../page/pageHarness';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver';

// The service's test deposit addresses derive from the Hardhat mnemonic, one index per session from the first: the
// payer is the node's last funded account, which a file's few sessions never reach.
export const PAYER = 19;
export const USDC = (whole: number) => BigInt(Math.round(whole * 1_000_000));
export const SOON = { timeout: 60_000, interval: 200 };
export const NOBODY = { pendingForMerchant: 0n, owedToMerchant: 0n, refundDue: 0n, operatorHeld: 0n };

type EvmChain = 'base' | 'arbitrum';

export interface MoneyWorld {
  service: TestService;
  chain: LocalChain;
  solana: LocalSolana;
  webhooks: WebhookReceiver;
  /** The service's indexers, each ticked to the chain's head before and after a payment. */
  indexers: ChainIndexer[];
  /** The tokens each EVM chain's indexer watches: reconciliation compares each. */
  evmTokens: Array<{ chain: EvmChain; tokens: Array<{ symbol: 'USDC' | 'USDT'; address: Address }> }>;
}

/** The local chains a refund test runs on, with Chromium for the pages, before the service that watches them. */
export interface BaseWorld {
  chain: LocalChain;
  solana: LocalSolana;
  webhooks: WebhookReceiver;
  browser: Browser;
  tokens: { usdc: Address; usdt: Address };
  /** What points the service's Base test network at the local chain and its two tokens, indexed from now on. */
  baseEnv: Record<string, string>;
}

/** Hardhat with USDC and USDT (6 decimals) funded for the payer, litesvm's Solana, the webhook receiver and Chromium. */
export async function startBaseWorld(): Promise<BaseWorld> {
  const [chain, solana, webhooks, browser] = await Promise.all([
    createLocalChain(),
    startLocalSolana({ port: 0 }),
    startWebhookReceiver(),
    launchBrowser(),
  ]);
  const tokens = {
    usdc: await chain.deployToken({ symbol: 'USDC', decimals: 6 }),
    usdt: await chain.deployToken({ symbol: 'USDT', decimals: 6 }),
  };
  for (const token of Object.values(tokens)) await chain.mint(token, chain.account(PAYER).address, 10n ** 12n);
  const baseEnv = {
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
    TOKEN_USDT_BASE_TESTNET: `${tokens.usdt}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
  };
  return { chain, solana, webhooks, browser, tokens, baseEnv };
}

/** The helpers over a world its file's `beforeAll` builds: read through `world` when called, never before. */
export function moneyHelpers(world: () => MoneyWorld) {
  function treasuryView(): TreasuryView {
    const { solana, chain, evmTokens } = world();
    return {
      mode: 'test',
      rpc: createSolanaRpc(solana.rpcUrl),
      treasury: solana.treasury.address,
      usdcMint: solana.usdcMint,
      evmChains: evmTokens.map(({ chain: name, tokens }) => ({
        chain: name,
        client: chain.publicClient,
        tokens,
        confirmations: CHAIN_FACTS[name].confirmations,
      })),
    };
  }

  async function drain(): Promise<void> {
    for (const indexer of world().indexers) while (await indexer.tick());
  }

  /** A transfer from the payer, mined to every watched chain's confirmation depth and seen by the indexers. */
  async function pay(token: Address, to: Address, amount: bigint) {
    const { chain, evmTokens } = world();
    await drain();
    const sent = await chain.transfer(token, PAYER, to, amount);
    await chain.mine(Math.max(...evmTokens.map((c) => CHAIN_FACTS[c.chain].confirmations)) - 1);
    await drain();
    return sent;
  }

  async function freshWallet(merchant: TestMerchant): Promise<SolanaAddress> {
    const wallet = (await generateKeyPairSigner()).address;
    await setSettlementWallet(world().service.db.sql, merchant.merchant.id, wallet);
    return wallet;
  }

  /** A test session of `amountUsd` created with the loopback webhook and USDC on base chosen. */
  async function openSession(merchant: TestMerchant, amountUsd: number, pair = { token: 'USDC', chain: 'base' }) {
    const { service, webhooks } = world();
    const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
      apiKey: merchant.testKey,
      body: sessionRequest(merchant.merchant.id, { amount_usd: amountUsd, webhook_url: webhooks.url }),
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.data?.session_id as string;
    const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
      apiKey: merchant.testKey,
      body: { session_id: sessionId, ...pair },
    });
    expect(selected.status).toBe(200);
    return {
      sessionId,
      expiresAt: Date.parse(created.body.data?.expires_at as string),
      depositAddress: selected.body.data?.deposit_address as Address,
      amount: BigInt(selected.body.data?.amount_base_units as string),
    };
  }

  async function status(merchant: TestMerchant, sessionId: string, mode: 'test' | 'live' = 'test'): Promise<string> {
    const read = await call(world().service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, {
      apiKey: mode === 'test' ? merchant.testKey : merchant.liveKey,
    });
    return read.body.data?.status as string;
  }

  /** Every webhook the endpoint received for the session: its status's, and its refunds' (docs/refunds.md#webhooks). */
  function allEventsOf(sessionId: string): Array<Record<string, unknown>> {
    return world()
      .webhooks.received.map((w) => JSON.parse(w.rawBody) as Record<string, unknown>)
      .filter((body) => body.session_id === sessionId);
  }

  /** The webhook events the merchant's endpoint received for the session's status, in order. */
  function eventsOf(sessionId: string): Array<Record<string, unknown>> {
    return allEventsOf(sessionId).filter((body) => 'status' in body);
  }

  /**
   * Polls `check` until it passes, the indexers scanning on each round: a watch written just before a scan is
   * backfilled on the next one, as the indexer's own loop would.
   */
  async function eventually(check: () => unknown | Promise<unknown>, timeout = SOON.timeout): Promise<void> {
    await vi.waitFor(
      async () => {
        await drain();
        await check();
      },
      { timeout, interval: SOON.interval },
    );
  }

  async function waitForEvent(sessionId: string, event: string): Promise<Record<string, unknown>> {
    await eventually(() => expect(eventsOf(sessionId).map((e) => e.event)).toContain(event));
    return eventsOf(sessionId).find((e) => e.event === event)!;
  }

  async function usdcOnSolana(owner: SolanaAddress): Promise<bigint> {
    const { solana } = world();
    const rpc = createSolanaRpc(solana.rpcUrl);
    const account = await associatedTokenAccount(owner, solana.usdcMint);
    if (!(await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value) return 0n;
    return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
  }

  /**
   * Who owns the session's units by its ledger postings: what each account holds of each token asset once they are
   * netted (credits negative), and the groups that do not sum to zero per asset (none, when the postings balance).
   */
  async function ledgerOf(sessionId: string) {
    const entries = await paymentLedgerEntries(world().service.db.sql, sessionId, paymentIdForSession(sessionId));
    const groups = new Map<string, bigint>();
    for (const e of entries) groups.set(`${e.groupId} ${e.asset}`, (groups.get(`${e.groupId} ${e.asset}`) ?? 0n) + e.amount);
    const holdings = holdingsOf(entries).filter((h) => !h.asset.startsWith('sol:'));
    const sum = (prefix: string) => holdings.filter((h) => h.account.startsWith(prefix)).reduce((total, h) => total + h.amount, 0n);
    return {
      holdings: Object.fromEntries(holdings.map((h) => [`${h.account} ${h.asset}`, h.amount])),
      unbalanced: [...groups].filter(([, total]) => total !== 0n).map(([group]) => group),
      owners: {
        pendingForMerchant: -sum('merchant_pending:'),
        owedToMerchant: -sum('merchant_payable'),
        refundDue: -sum('refund_due:'),
        operatorHeld: -sum('operator_held:'),
      },
    };
  }

  /** The worker's reconciliation step as it runs on schedule: refund-only deposits posted, then every account compared. */
  async function reconciliationDifferences() {
    await postRefundOnlyDeposits(world().service.db.sql, 'test');
    const run = await reconcileLedger(treasuryView(), world().service.db.sql);
    return run.differences.map((d) => ({ account: d.account, asset: d.asset, difference: d.difference }));
  }

  return {
    treasuryView,
    drain,
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
  };
}
