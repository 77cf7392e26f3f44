// The money matrix's rows where the treasury payout itself goes wrong, through the real service (HTTP API, session and
// signer workers on Temporal, the EVM indexer on a local Hardhat chain, payouts from the local Solana treasury): a
// payout transaction that lands and fails, and a treasury key rotated or removed while a payout is under way. For
// each, the session's status, its webhooks, who owns every unit by the session's ledger postings
// (docs/settlement.md#who-owns-each-unit), that they balance, and that reconciliation finds the chains agreeing with
// the ledger. The service's Solana node is reached through a proxy that can hold the signer's transactions back, so
// a test decides when (and how) a signed payout reaches the chain. One service and chain serve every row, in order.
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address as SolanaAddress,
  type Base64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { ed25519 } from '@noble/curves/ed25519.js';
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { recordTreasuryOpening } from '../../activities/settlement/treasuryFunding';
import { loadChainsConfig } from '../../config/chains';
import { postRefundOnlyDeposits } from '../../db/repositories/depositLedger';
import { paymentLedgerEntries } from '../../db/repositories/ledgerExplanation';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { findStatusReason } from '../../db/repositories/sessionTimeline';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import { holdingsOf } from '../../domain/ledger/ledgerExplanation';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import { adminCli } from '../support/adminCli';
import { startRpcProxy, type RpcProxy } from '../support/evm/rpcProxy';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { baseTestnetIndexer } from '../support/serviceIndexer';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

// As in moneyMatrix.test.ts: deposit addresses derive from the Hardhat mnemonic from the first index, the payer is
// the node's last funded account.
const PAYER = 19;
const USDC_DECIMALS = 6;
const LAMPORTS_PER_SOL = 1_000_000_000n;
const SOON = { timeout: 60_000, interval: 200 };
/** The rows' session amount in USDC base units: $20 at a rate of 1. */
const USDC_20 = 20_000_000n;

let service: TestService;
let chain: LocalChain;
let solana: LocalSolana;
/** The service's Solana node (signer and worker alike); the test reads and writes the chain directly. */
let solanaProxy: RpcProxy;
let webhooks: WebhookReceiver;
let shop: TestMerchant;
let usdc: Address;
let base: ChainIndexer;
const admin = adminCli(() => service);

beforeAll(async () => {
  [chain, solana, webhooks] = await Promise.all([createLocalChain(), startLocalSolana({ port: 0 }), startWebhookReceiver()]);
  usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
  await chain.mint(usdc, chain.account(PAYER).address, 10n ** 12n);
  solanaProxy = await startRpcProxy(solana.rpcUrl);
  const baseEnv = {
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${usdc}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
  };
  const solanaEnv = Object.fromEntries(
    Object.entries(solana.env).map(([name, value]) => [name, value === solana.rpcUrl ? solanaProxy.url : value]),
  );
  service = await startTestService({
    env: { ...solanaEnv, ...solana.signerEnv, ...baseEnv, SOLANA_PAYOUT_MEMO: 'false', SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0' },
  });
  shop = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] } });
  base = baseTestnetIndexer(service, loadChainsConfig({ ...baseEnv, INDEXER_WATCH_RELOAD_MS: '1000' }));
  await recordTreasuryOpening(treasuryView(), service.db.sql, 'local');
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([chain?.stop(), solana?.stop(), webhooks?.close(), service?.stop()]);
  await solanaProxy?.close();
});

function treasuryView(): TreasuryView {
  return {
    mode: 'test',
    rpc: createSolanaRpc(solana.rpcUrl),
    treasury: solana.treasury.address,
    usdcMint: solana.usdcMint,
    evmChains: [
      {
        chain: 'base',
        client: chain.publicClient,
        tokens: [{ symbol: 'USDC', address: usdc }],
        confirmations: CHAIN_FACTS.base.confirmations,
      },
    ],
  };
}

async function drain(): Promise<void> {
  while (await base.tick());
}

/** A transfer from the payer, mined to base's confirmation depth and seen by the indexer. */
async function pay(to: Address, amount: bigint): Promise<void> {
  await drain();
  await chain.transfer(usdc, PAYER, to, amount);
  await chain.mine(CHAIN_FACTS.base.confirmations - 1);
  await drain();
}

async function eventually(check: () => unknown | Promise<unknown>, timeout = SOON.timeout): Promise<void> {
  await vi.waitFor(
    async () => {
      await drain();
      await check();
    },
    { timeout, interval: SOON.interval },
  );
}

async function freshWallet(merchant: TestMerchant): Promise<SolanaAddress> {
  const wallet = (await generateKeyPairSigner()).address;
  await setSettlementWallet(service.db.sql, merchant.merchant.id, wallet);
  return wallet;
}

/** A test session of $20 created with the loopback webhook and USDC on base chosen. */
async function openSession(merchant: TestMerchant) {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id, { amount_usd: 20, webhook_url: webhooks.url }),
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.data?.session_id as string;
  const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
    apiKey: merchant.testKey,
    body: { session_id: sessionId, token: 'USDC', chain: 'base' },
  });
  expect(selected.status).toBe(200);
  return {
    sessionId,
    paymentId: paymentIdForSession(sessionId),
    depositAddress: selected.body.data?.deposit_address as Address,
    amount: BigInt(selected.body.data?.amount_base_units as string),
  };
}

async function status(merchant: TestMerchant, sessionId: string): Promise<string> {
  const read = await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey });
  return read.body.data?.status as string;
}

/** The webhook events the merchant's endpoint received for the session, in order. */
function eventsOf(sessionId: string): Array<Record<string, unknown>> {
  return webhooks.received.map((w) => JSON.parse(w.rawBody) as Record<string, unknown>).filter((body) => body.session_id === sessionId);
}

async function waitForEvent(sessionId: string, event: string): Promise<Record<string, unknown>> {
  await eventually(() => expect(eventsOf(sessionId).map((e) => e.event)).toContain(event));
  return eventsOf(sessionId).find((e) => e.event === event)!;
}

async function usdcOnSolana(owner: SolanaAddress): Promise<bigint> {
  const rpc = createSolanaRpc(solana.rpcUrl);
  const account = await associatedTokenAccount(owner, solana.usdcMint);
  if (!(await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
}

/**
 * Who owns the session's units by its ledger postings, as moneyMatrix.test.ts reads them, and what the accounts
 * these rows are about hold on net (0 for one the postings leave empty, which holdingsOf drops): `held(prefix,
 * asset)` sums every account under the prefix, so an intermediate account that nets to zero changes nothing.
 */
async function ledgerOf(sessionId: string) {
  const entries = await paymentLedgerEntries(service.db.sql, sessionId, paymentIdForSession(sessionId));
  const groups = new Map<string, bigint>();
  const assets = new Map<string, bigint>();
  for (const e of entries) {
    groups.set(`${e.groupId} ${e.asset}`, (groups.get(`${e.groupId} ${e.asset}`) ?? 0n) + e.amount);
    assets.set(e.asset, (assets.get(e.asset) ?? 0n) + e.amount);
  }
  const holdings = holdingsOf(entries).filter((h) => !h.asset.startsWith('sol:'));
  const held = (prefix: string, asset?: string) =>
    holdings
      .filter((h) => h.account.startsWith(prefix) && (asset === undefined || h.asset === asset))
      .reduce((total, h) => total + h.amount, 0n);
  return {
    held,
    unbalanced: [...groups].filter(([, total]) => total !== 0n).map(([group]) => group),
    unbalancedAssets: [...assets].filter(([, total]) => total !== 0n).map(([asset]) => asset),
    owners: { owedToMerchant: -held('merchant_payable'), refundDue: -held('refund_due:'), operatorHeld: -held('operator_held:') },
  };
}

/** The worker's reconciliation step as it runs on schedule: refund-only deposits posted, then every account compared. */
async function reconciliationDifferences() {
  await postRefundOnlyDeposits(service.db.sql, 'test');
  const run = await reconcileLedger(treasuryView(), service.db.sql);
  return run.differences.map((d) => ({ account: d.account, asset: d.asset, difference: d.difference }));
}

const NOBODY = { owedToMerchant: 0n, refundDue: 0n, operatorHeld: 0n };

/** The session paid out in full: the treasury's USDC went to the merchant, nothing is owed, reserved or in flight. */
async function expectPaidToMerchant(sessionId: string, amount: bigint): Promise<void> {
  const ledger = await ledgerOf(sessionId);
  expect(ledger.unbalanced).toEqual([]);
  expect(ledger.unbalancedAssets).toEqual([]);
  expect(ledger.owners).toEqual(NOBODY);
  expect(ledger.held('deposits:base', 'usdc:base')).toBe(amount);
  expect(ledger.held('payouts_in_flight')).toBe(0n);
  expect(ledger.held('treasury:solana', 'usdc:solana')).toBe(-amount);
  expect(await reconciliationDifferences()).toEqual([]);
}

/** The payout rows of the payment: one per payment, ever, whatever its generation. */
async function payoutsOf(paymentId: string) {
  return service.db.sql<{ generation: number; status: string; treasury: string; signature: string | null }[]>`
    select generation, status, treasury, signature from payouts where payment_id = ${paymentId}`;
}

async function intentOf(id: string) {
  const [intent] = await service.db.sql<
    { status: string; signature: string; wire_transaction: string; superseded_signatures: string[] }[]
  >`select status, signature, wire_transaction, superseded_signatures from chain_intents where id = ${id}`;
  return intent!;
}

/** How many of `signatures` are on the chain, and how many of those executed without error. */
async function landed(signatures: string[]): Promise<{ landed: number; succeeded: number }> {
  const { value } = await createSolanaRpc(solana.rpcUrl)
    .getSignatureStatuses(signatures as Signature[], { searchTransactionHistory: true })
    .send();
  const found = value.filter((s) => s !== null);
  return { landed: found.length, succeeded: found.filter((s) => s.err === null).length };
}

/** The transactions the service sent while holdSentTransactions held them back, base64. */
const held: string[] = [];

/**
 * From now on the transactions the service sends never reach the chain: the proxy keeps their bytes and answers with
 * their signature, as a node answers every transaction it accepts (one lost on its way to the leader).
 */
function holdSentTransactions(): void {
  solanaProxy.setPolicy((method) =>
    method === 'sendTransaction'
      ? {
          respond(request) {
            const wire = request.params?.[0] as string;
            held.push(wire);
            const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
            const [feePayerSignature] = Object.values(transaction.signatures);
            return { result: getBase58Decoder().decode(feePayerSignature!) };
          },
        }
      : 'forward',
  );
}

async function sendOnChain(feePayer: KeyPairSigner, instructions: Instruction[]): Promise<void> {
  const rpc = createSolanaRpc(solana.rpcUrl);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const transaction = await pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(feePayer, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => signTransactionMessageWithSigners(message),
  );
  await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
}

/**
 * Lands the held payout transaction as a failure, as treasuryPayoutRecovery.test.ts does on the in-process chain: the
 * treasury's USDC is moved away after signing, the stored bytes reach a leader without preflight and fail, and the
 * USDC is moved back. Another wallet pays both moves' fees, so the treasury's SOL changes only by the failed payout's
 * fee, which the signer books.
 */
async function landAsFailure(wire: string): Promise<void> {
  const treasury = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solana.treasury.secretKeyBase58));
  const aside = await generateKeyPairSigner();
  solana.airdrop(aside.address, LAMPORTS_PER_SOL);
  const [treasuryAccount, asideAccount] = await Promise.all([
    associatedTokenAccount(treasury.address, solana.usdcMint),
    associatedTokenAccount(aside.address, solana.usdcMint),
  ]);
  const balance = await usdcOnSolana(treasury.address);
  const move = (source: SolanaAddress, destination: SolanaAddress, authority: KeyPairSigner) =>
    getTransferCheckedInstruction({ source, mint: solana.usdcMint, destination, authority, amount: balance, decimals: USDC_DECIMALS });
  await sendOnChain(aside, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: aside, ata: asideAccount, owner: aside.address, mint: solana.usdcMint }),
    move(treasuryAccount, asideAccount, treasury),
  ]);
  await createSolanaRpc(solana.rpcUrl)
    .sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true })
    .send();
  await sendOnChain(aside, [move(asideAccount, treasuryAccount, aside)]);
  expect(await usdcOnSolana(treasury.address)).toBe(balance);
}

/** SOLANA_TREASURY_KEY_* of a fresh treasury: the 64-byte keypair in base58, as wallets export it. */
function freshTreasuryKey(): { address: SolanaAddress; secretKeyBase58: string } {
  const seed = randomBytes(32);
  const publicKey = ed25519.getPublicKey(seed);
  return {
    address: getBase58Decoder().decode(publicKey) as SolanaAddress,
    secretKeyBase58: getBase58Decoder().decode(new Uint8Array([...seed, ...publicKey])),
  };
}

/**
 * A session of the shop paid in full whose payout the signer's treasury signed and sent, the bytes held back from
 * the chain (holdSentTransactions): under way, not landed. Sends stay held until the caller lets them through.
 */
async function payoutUnderWay() {
  const wallet = await freshWallet(shop);
  const session = await openSession(shop);
  expect(session.amount).toBe(USDC_20);
  const treasuryBefore = await usdcOnSolana(solana.treasury.address);
  held.length = 0;
  holdSentTransactions();
  await pay(session.depositAddress, session.amount);
  await eventually(async () => expect((await payoutsOf(session.paymentId))[0]?.status).toBe('submitted'));
  const signed = await intentOf(`payout:${session.paymentId}`);
  expect(held).toContain(signed.wire_transaction);
  expect(await payoutsOf(session.paymentId)).toEqual([
    { generation: 1, status: 'submitted', treasury: solana.treasury.address, signature: signed.signature },
  ]);
  expect(await landed([signed.signature])).toEqual({ landed: 0, succeeded: 0 });
  return { ...session, wallet, treasuryBefore, signed };
}

/**
 * Lets the held bytes through and expects the restarted signer to have finished the payout from them: completed once,
 * the treasury that signed it paid the merchant once, the intent's one transaction landed, nothing signed again.
 */
async function expectFollowedToConfirmation(row: Awaited<ReturnType<typeof payoutUnderWay>>): Promise<void> {
  const { sessionId, paymentId, amount, wallet, signed } = row;
  solanaProxy.setPolicy(() => 'forward');
  await eventually(async () => expect(await status(shop, sessionId)).toBe('completed'));

  const completed = await waitForEvent(sessionId, 'payment.completed');
  expect(completed).toMatchObject({ status: 'completed', settlement: { amount_usdc: '20.000000', provider: 'solana-treasury' } });
  expect(eventsOf(sessionId).filter((e) => e.event === 'payment.completed')).toHaveLength(1);
  expect(await usdcOnSolana(wallet)).toBe(amount);
  expect(await usdcOnSolana(solana.treasury.address)).toBe(row.treasuryBefore - amount);
  const landedStatus = expect.stringMatching(/^(confirmed|finalized)$/);
  expect(await intentOf(`payout:${paymentId}`)).toEqual({
    status: landedStatus,
    signature: signed.signature,
    wire_transaction: signed.wire_transaction,
    superseded_signatures: [],
  });
  expect(await payoutsOf(paymentId)).toEqual([
    { generation: 1, status: landedStatus, treasury: solana.treasury.address, signature: signed.signature },
  ]);
  expect(await landed([signed.signature])).toEqual({ landed: 1, succeeded: 1 });
  await expectPaidToMerchant(sessionId, amount);
}

describe('the money matrix, payouts gone wrong: every unit has an owner', { timeout: 120_000 }, () => {
  it('payout landed and failed: failed with its webhook, owed to the merchant again; repay --confirm pays it under generation 2, once', async () => {
    const wallet = await freshWallet(shop);
    const { sessionId, paymentId, depositAddress, amount } = await openSession(shop);
    const treasuryBefore = await usdcOnSolana(solana.treasury.address);
    held.length = 0;
    holdSentTransactions();
    await pay(depositAddress, amount);
    await eventually(() => expect(held).not.toEqual([]));
    const signed = await intentOf(`payout:${paymentId}`);
    expect(held[0]).toBe(signed.wire_transaction);
    await landAsFailure(signed.wire_transaction);
    solanaProxy.setPolicy(() => 'forward');
    await eventually(async () => expect(await status(shop, sessionId)).toBe('failed'));

    const failed = await waitForEvent(sessionId, 'payment.failed');
    expect(failed).toMatchObject({ status: 'failed', amount: { token_received: '20.000000' } });
    expect(await findStatusReason(service.db.sql, sessionId)).toMatch(
      new RegExp(`^settlement failed: payout transaction ${signed.signature} of ${paymentId} failed on chain`),
    );
    expect(await payoutsOf(paymentId)).toEqual([
      { generation: 1, status: 'failed', treasury: solana.treasury.address, signature: signed.signature },
    ]);
    expect(await landed([signed.signature])).toEqual({ landed: 1, succeeded: 0 });
    expect(await usdcOnSolana(wallet)).toBe(0n);
    expect(await usdcOnSolana(solana.treasury.address)).toBe(treasuryBefore);
    // The reservation released: owed to the merchant again, nothing in flight, nothing left the treasury.
    const owed = await ledgerOf(sessionId);
    expect(owed.unbalanced).toEqual([]);
    expect(owed.unbalancedAssets).toEqual([]);
    expect(owed.owners).toEqual({ ...NOBODY, owedToMerchant: amount });
    expect(owed.held(`merchant_payable:${shop.merchant.id}`, 'usdc:solana')).toBe(-amount);
    expect(owed.held('deposits:base', 'usdc:base')).toBe(amount);
    expect(owed.held('payouts_in_flight')).toBe(0n);
    expect(owed.held('treasury:solana')).toBe(0n);
    expect(await reconciliationDifferences()).toEqual([]);

    // Never without the operator's decision; then under generation 2, once.
    const refused = await admin.run(['settlement', 'repay', paymentId, '--operator', 'matrix']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/add --confirm/);
    expect(await payoutsOf(paymentId)).toMatchObject([{ generation: 1, status: 'failed' }]);
    expect(await admin.json(['settlement', 'repay', paymentId, '--confirm', '--operator', 'matrix'])).toMatchObject({
      outcome: 'started',
      generation: 2,
      new_generation: true,
      intent_id: `payout:${paymentId}:2`,
    });
    await eventually(async () => expect(await status(shop, sessionId)).toBe('completed'));
    const completed = await waitForEvent(sessionId, 'payment.completed');
    expect(completed).toMatchObject({ status: 'completed', settlement: { amount_usdc: '20.000000', provider: 'solana-treasury' } });
    expect(eventsOf(sessionId).map((e) => e.event)).toEqual(['payment.confirming', 'payment.failed', 'payment.completed']);
    expect(await usdcOnSolana(wallet)).toBe(amount);
    const repaid = await intentOf(`payout:${paymentId}:2`);
    expect(await payoutsOf(paymentId)).toEqual([
      {
        generation: 2,
        status: expect.stringMatching(/^(confirmed|finalized)$/),
        treasury: solana.treasury.address,
        signature: repaid.signature,
      },
    ]);
    expect(await service.db.sql`select generation, signature, repaid_by from failed_payouts where payment_id = ${paymentId}`).toEqual([
      { generation: 1, signature: signed.signature, repaid_by: 'matrix' },
    ]);
    expect(await landed([signed.signature, repaid.signature])).toEqual({ landed: 2, succeeded: 1 });
    expect(await usdcOnSolana(solana.treasury.address)).toBe(treasuryBefore - amount);
    await expectPaidToMerchant(sessionId, amount);

    // Asked again: the generation is paid once; nothing new is written or started.
    expect(await admin.json(['settlement', 'repay', paymentId, '--confirm', '--operator', 'matrix'])).toMatchObject({
      outcome: 'already_settled',
      new_generation: false,
      generation: 2,
    });
    expect(await usdcOnSolana(wallet)).toBe(amount);
  });

  it('treasury key rotated mid-payout: the signer restarted with another key follows the stored bytes to confirmation, paid once', async () => {
    // The new treasury could pay: a signer that signed the payout again from it would pay the merchant twice.
    const rotated = freshTreasuryKey();
    solana.airdrop(rotated.address, LAMPORTS_PER_SOL);
    await solana.mintUsdc(rotated.address, USDC_20 * 5n);
    const row = await payoutUnderWay();

    await service.restartWorkers({ SOLANA_TREASURY_KEY_TEST: rotated.secretKeyBase58 });
    await expectFollowedToConfirmation(row);
    expect(await usdcOnSolana(rotated.address)).toBe(USDC_20 * 5n);
  });

  it('treasury key removed mid-payout: the signer restarted without a key follows the stored bytes to confirmation, paid once', async () => {
    await service.restartWorkers({ SOLANA_TREASURY_KEY_TEST: solana.treasury.secretKeyBase58 });
    const row = await payoutUnderWay();

    await service.restartWorkers({ SOLANA_TREASURY_KEY_TEST: undefined });
    await expectFollowedToConfirmation(row);
  });
});
