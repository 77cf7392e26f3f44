// `npm run demo`: one test-mode payment from start to finish, printed as it happens. It starts the same stack as
// `npm start` (bin/devStack.ts), creates a session whose webhook_url is a receiver on loopback, selects USDC on
// base, pays it with a real ERC-20 transfer on the local chain, mines blocks to the required depth, follows the
// status to completed and checks the webhook's signature with verifyWebhookSignature. `npm run demo -- --chain
// solana` pays on the local Solana chain instead: a customer wallet funded by the mint sends a real SPL
// transferChecked through the JSON-RPC, and the chain's own slots bring the confirmations. Either way it shows the
// merchant's and the treasury's USDC on the local Solana chain before and after, and how the session was settled.
// On base the deposit address is a clone of the local deposit factory, and after the payout the demo follows the
// inventory path that brings the deposit back to the treasury: sweep, burn, attestation, receive (demo/inventoryPath.ts).
// `npm run demo -- --token USDT` pays USDT on base: its path swaps it to USDC in the collector through the local
// Uniswap V3 pool before the burn. Either path ends with the ledger's closing position (demo/ledgerPosition.ts).
// `npm run demo -- --refund` overpays on Solana and follows the excess back to the customer: the refund the service
// made for it, claimed by the customer to a wallet of their own, paid from the treasury (demo/refundPath.ts).
//
// It always runs its own stack, on free ports with a throw-away data directory, never a running `npm start`: a
// payment needs that process's chain RPC URL, token, funded account, API key and webhook secret, and reaching
// them from outside would tie the demo to one configuration of it. Its own stack costs a few seconds and can
// neither collide with nor leave anything behind in `npm start`'s data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { address as solanaAddress, generateKeyPairSigner } from '@solana/kit';
import type { Address } from 'viem';
import { loadConfig } from '../config/env';
import { evmForwarderAddress } from '../domain/addresses/depositForwarder';
import { depositSalt } from '../domain/addresses/depositSalt';
import { EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER, verifyWebhookSignature } from '../domain/webhooks/webhookSignature';
import { createLogger } from '../observability/logger';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import { getStateQuery } from '../workflows/messages';
import { DemoUsageError, demoOptions, type DemoOptions } from './demo/demoOptions';
import { startDemoStack } from './demo/demoStack';
import { followInventoryPath } from './demo/inventoryPath';
import { showLedgerPosition } from './demo/ledgerPosition';
import { followRefundPath } from './demo/refundPath';
import { followSession, type SessionProgress } from './demo/sessionProgress';
import { payUsdc, usdcBalance } from './demo/solanaWallet';
import { startDemoWebhookReceiver, type DemoWebhookReceiver } from './demo/webhookReceiver';
import type { DevStack } from './devStack';

const AMOUNT_USD = 25.5;
const MINING_STEPS = 3;
const SIGNATURE_TOLERANCE_SECONDS = 300;
const STARTUP_NOTE_TIMEOUT_MS = 500;
const CUSTOMER_SOL = 1_000_000_000n;
/** What `--refund` pays beyond the amount asked for: 4.5 USDC, well past the overpayment tolerance. */
const OVERPAYMENT = 4_500_000n;

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`▸ ${line}`);
const detail = (label: string, value: string) => console.log(`    ${label.padEnd(27)}${value}`);

const options = demoArguments(process.argv.slice(2));
const userConfig = loadConfig(process.env, 'dev');
// Progress lines are the demo's output; the service's own log lines only when something goes wrong.
const logLevel = process.env.LOG_LEVEL ? userConfig.logLevel : 'warn';
const dataDir = mkdtempSync(join(tmpdir(), 'checkout-demo-'));
let stack: DevStack | undefined;
let receiver: DemoWebhookReceiver | undefined;

async function cleanUp(): Promise<void> {
  await receiver?.close();
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

process.once('SIGINT', () => {
  console.error('\n✖ demo interrupted');
  // Exits in every case: a failing clean-up must not keep an interrupted demo alive.
  void cleanUp().finally(() => process.exit(130));
});

// The demo orders shutdown itself, as `npm start` does, and serves no worker metrics beside a running one.
installWorkerRuntime({
  logger: createLogger(logLevel, 'worker', userConfig.logFormat),
  metricsBindAddress: undefined,
  shutdownSignals: [],
});

try {
  const { refund, token, chain: payOn } = options;
  console.log(
    `Stablecoin checkout demo: one test-mode ${token} payment on a local chain (${payOn}), start to finish${refund ? ', overpaid and the excess refunded' : ''}\n`,
  );
  await noteRunningService();
  say(`starting the service on free ports with a throw-away data directory (${dataDir})`);
  stack = await startDemoStack({ dataDir, logLevel, keyLabel: 'npm run demo', progress: say });
  const chain = stack.devChain;
  const solana = stack.localSolana;
  if (!chain || !solana) throw new Error('the stack started without its local chains');
  say(
    `service up after ${elapsed()}: API ${stack.apiUrl}, local chain ${chain.local.rpcUrl}, USDC test token ${chain.usdc}, USDT test token ${chain.usdt}`,
  );
  say(`local Solana ${solana.rpcUrl}, USDC mint ${solana.usdcMint}, treasury ${solana.treasury.address}`);
  const merchantWallet = stack.merchant.settlementWallet;
  if (!merchantWallet) throw new Error(`the demo merchant ${stack.merchant.id} has no settlement wallet`);
  const merchantUsdc = async () => formatUsdc(await usdcBalance(solana.rpcUrl, solanaAddress(merchantWallet), solana.usdcMint));
  say(`merchant's settlement wallet ${merchantWallet} holds ${await merchantUsdc()} USDC on the local Solana chain`);
  const treasuryUsdc = async () => formatUsdc(await usdcBalance(solana.rpcUrl, solana.treasury.address, solana.usdcMint));
  say(`treasury ${solana.treasury.address} holds ${await treasuryUsdc()} USDC on the local Solana chain`);

  receiver = await startDemoWebhookReceiver();
  say(`webhook receiver listening on ${receiver.url}`);

  const api = apiClient(stack.apiUrl, stack.testKey);
  const created = await api('POST', '/checkout/sessions', {
    merchant_id: stack.merchant.id,
    transaction_id: `demo-${Date.now()}`,
    amount_usd: AMOUNT_USD,
    webhook_url: receiver.url,
    metadata: { source: 'npm run demo' },
  });
  const sessionId = text(created, 'session_id');
  say(`POST /checkout/sessions → session ${sessionId} for ${AMOUNT_USD.toFixed(2)} USD (merchant ${stack.merchant.id})`);

  const selected = await api('POST', '/checkout/sessions/select-payment', {
    session_id: sessionId,
    token,
    chain: payOn === 'solana' ? 'solana' : chain.chain,
  });
  const depositAddress = text(selected, 'deposit_address');
  const tokenAddress = text(selected, 'token_address');
  const amount = BigInt(text(selected, 'amount_base_units'));
  const required = Number(selected.confirmations_required);
  say(`POST /checkout/sessions/select-payment ${token} on ${payOn === 'solana' ? 'solana' : chain.chain}`);
  detail('deposit address', depositAddress);
  detail('token contract', tokenAddress);
  detail('amount', `${text(selected, 'amount')} ${token} (${amount} base units)`);
  detail('payment URI', text(selected, 'payment_uri'));
  detail('confirmations required', String(required));
  if (payOn === 'base') {
    const { factory, forwarder } = chain.depositContracts;
    if (depositAddress !== evmForwarderAddress({ factory, implementation: forwarder }, depositSalt(sessionId))) {
      throw new Error(
        `select-payment quoted ${depositAddress}, not the local deposit factory's address for the session: the worker missed EVM_DEPOSIT_FACTORY_TEST`,
      );
    }
    detail('deposit address is', `deposit factory ${factory}'s clone for the session, computed offline (no code until its first sweep)`);
  }
  const localToken = payOn === 'solana' ? solana.usdcMint : token === 'USDT' ? chain.usdt : chain.usdc;
  if (tokenAddress.toLowerCase() !== localToken.toLowerCase()) {
    throw new Error(
      `select-payment quoted token ${tokenAddress}, not the local chain's ${token} ${localToken}: the worker's chain registry missed the local chain`,
    );
  }

  let depositConfirmedAt: number | undefined;
  const progress = followSession({
    readStatus: async () => text(await api('GET', `/checkout/sessions/${sessionId}`), 'status'),
    temporal: stack.temporal,
    sessionId,
    confirmationsRequired: required,
    print: say,
  });
  await progress.until((p) => p.status === 'awaiting_payment', 10_000, 'the session awaiting payment');

  if (payOn === 'solana') {
    const customer = await generateKeyPairSigner();
    const sent = refund ? amount + OVERPAYMENT : amount;
    solana.airdrop(customer.address, CUSTOMER_SOL);
    await solana.mintUsdc(customer.address, sent);
    say(`customer wallet ${customer.address} funded: 1 SOL for fees, ${formatUsdc(sent)} USDC minted by the local mint`);
    const paid = await payUsdc({
      rpcUrl: solana.rpcUrl,
      from: customer,
      mint: solana.usdcMint,
      decimals: solana.usdcDecimals,
      to: solanaAddress(depositAddress),
      amount: sent,
    });
    say(`USDC transferChecked(${depositAddress}, ${sent}) from ${customer.address}: signature ${paid.signature} in slot #${paid.slot}`);
    if (refund) detail('overpaid by', `${formatUsdc(OVERPAYMENT)} USDC, owed back to the customer`);
    await progress.until((p) => p.confirmations !== undefined, 30_000, 'the indexer seeing the transfer');
    say(`the local chain seals a block every slot: ${required} confirmations take about ${(required * 0.4).toFixed(0)} s`);
    const outcome = refund ? 'overpaid' : 'completed';
    await progress.until((p) => p.status === outcome, 60_000, outcome);
  } else {
    depositConfirmedAt = await payOnLocalEvm(
      token === 'USDT' ? chain.usdt : chain.usdc,
      depositAddress as Address,
      amount,
      required,
      progress,
    );
  }
  const { settlement } = await stack.temporal.workflow.getHandle(sessionId).query(getStateQuery);
  say(
    settlement
      ? `settlement: ${settlement.provider} (reference ${settlement.reference}, ${formatUsdc(BigInt(settlement.amountUsdc))} USDC)${settlement.provider === 'simulated' ? ': recorded, no USDC moved on Solana' : ': paid from the treasury on the local Solana chain'}`
      : 'settlement: none recorded',
  );
  if (settlement?.provider === 'solana-treasury')
    detail('payout signature', `${settlement.reference} (treasury → merchant on the local Solana chain)`);
  say(`merchant's settlement wallet ${merchantWallet} holds ${await merchantUsdc()} USDC on the local Solana chain`);
  say(`treasury ${solana.treasury.address} holds ${await treasuryUsdc()} USDC on the local Solana chain`);
  if (payOn === 'base' && depositConfirmedAt !== undefined) {
    say(
      token === 'USDT'
        ? "the inventory path: the deposit's USDT becomes USDC in the collector and travels back to the treasury"
        : "the inventory path: the deposit's USDC travels back to the treasury",
    );
    await followInventoryPath({
      temporal: stack.temporal,
      devChain: chain,
      attestationUrl: stack.attestationUrl ?? '',
      token,
      sessionId,
      depositAddress: depositAddress as Address,
      depositConfirmedAt,
      treasuryUsdc: () => usdcBalance(solana.rpcUrl, solana.treasury.address, solana.usdcMint),
      merchantUsdc: () => usdcBalance(solana.rpcUrl, solanaAddress(merchantWallet), solana.usdcMint),
      formatUsdc,
      say,
      detail,
    });
    say(`treasury ${solana.treasury.address} holds ${await treasuryUsdc()} USDC after the inventory path`);
    await showLedgerPosition({ databaseUrl: stack.databaseUrl, devChain: chain, solana, say, detail });
  }

  if (refund) {
    say('the excess goes back: the service made a refund for it, and the customer claims it');
    await followRefundPath({
      api,
      sessionId,
      customerUsdc: (owner) => usdcBalance(solana.rpcUrl, owner, solana.usdcMint),
      formatUsdc,
      say,
      detail,
    });
    say(`treasury ${solana.treasury.address} holds ${await treasuryUsdc()} USDC after the refund`);
  }

  // payment.confirming came when the deposit was seen; the outcome is payment.completed (payment.overpaid with --refund).
  const outcomeEvent = refund ? 'payment.overpaid' : 'payment.completed';
  let delivery = await receiver.next(30_000);
  const eventOf = (d: typeof delivery) => String(d.headers[EVENT_HEADER.toLowerCase()] ?? '');
  while (eventOf(delivery) !== outcomeEvent) {
    say(`webhook received: ${eventOf(delivery)}`);
    delivery = await receiver.next(30_000);
  }
  const header = (name: string) => String(delivery.headers[name.toLowerCase()] ?? '');
  say(`webhook received: POST ${delivery.path}`);
  for (const name of [EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER]) detail(name, header(name));
  console.log(`    body ${JSON.stringify(JSON.parse(delivery.rawBody), null, 2).replaceAll('\n', '\n    ')}`);
  const verified = verifyWebhookSignature(delivery.rawBody, header(SIGNATURE_HEADER), stack.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
  if (!verified.valid) throw new Error(`the webhook's signature was rejected: ${verified.reason}`);
  say(
    `verifyWebhookSignature(rawBody, ${SIGNATURE_HEADER}, test webhook secret, ${SIGNATURE_TOLERANCE_SECONDS}) → valid, signed at ${new Date(verified.timestamp * 1000).toISOString()}`,
  );

  if (refund) {
    while (eventOf(delivery) !== 'refund.completed') delivery = await receiver.next(30_000);
    const body = JSON.parse(delivery.rawBody) as { refund: Record<string, unknown> };
    const signed = verifyWebhookSignature(delivery.rawBody, header(SIGNATURE_HEADER), stack.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    if (!signed.valid) throw new Error(`the refund webhook's signature was rejected: ${signed.reason}`);
    say(`webhook received: refund.completed, signature valid`);
    for (const field of ['id', 'source', 'amount_usd', 'fee_usd', 'destination', 'transaction_hash'])
      detail(field, JSON.stringify(body.refund[field]));
  }

  console.log(
    `\n✔ demo finished in ${elapsed()}: session ${sessionId} ${refund ? 'overpaid and its excess refunded' : 'completed'}, webhook verified`,
  );
  await cleanUp();
  process.exit(0);
} catch (error) {
  console.error(`\n✖ demo failed after ${elapsed()}: ${error instanceof Error ? error.message : String(error)}`);
  await cleanUp().catch(() => undefined);
  process.exit(1);
}

/** Pays, mines to the required depth and waits for completion; answers when the deposit reached its depth. */
async function payOnLocalEvm(
  tokenAddress: Address,
  depositAddress: Address,
  amount: bigint,
  required: number,
  progress: SessionProgress,
): Promise<number> {
  const chain = stack?.devChain;
  if (!chain) throw new Error('the stack started without its local chain');
  const paid = await chain.local.transfer(tokenAddress, chain.payer, depositAddress, amount);
  say(`${options.token} transfer(${depositAddress}, ${amount}) from ${chain.payer.address}: tx ${paid.hash} in block #${paid.blockNumber}`);
  await progress.until((p) => p.confirmations !== undefined, 30_000, 'the indexer seeing the transfer');

  // The transfer's own block is its first confirmation; the others are mined in a few steps to show them arrive.
  const toMine = required - 1;
  let mined = 0;
  for (let step = 1; step <= MINING_STEPS && mined < toMine; step++) {
    const blocks = Math.ceil((toMine - mined) / (MINING_STEPS - step + 1));
    await chain.local.mine(blocks);
    mined += blocks;
    say(`hardhat_mine ${blocks} blocks → head #${await chain.local.blockNumber()}`);
    const depth = mined + 1;
    await progress.until((p) => p.status === 'completed' || (p.confirmations ?? 0) >= depth, 30_000, `${depth} confirmations`);
  }
  say(`mined ${mined} blocks after the transfer's own: ${mined + 1} confirmations, ${required} required`);
  const confirmedAt = Date.now();
  await progress.until((p) => p.status === 'completed', 60_000, 'completion');
  return confirmedAt;
}

/** The demo's arguments; wrong ones end it before anything starts, with exit code 2 as a usage error. */
function demoArguments(args: string[]): DemoOptions {
  try {
    return demoOptions(args);
  } catch (error) {
    if (!(error instanceof DemoUsageError)) throw error;
    console.error(`✖ ${error.message}`);
    process.exit(2);
  }
}

/** 6-decimal base units as the USDC amount, without trailing zeros. */
function formatUsdc(baseUnits: bigint): string {
  const fraction = (baseUnits % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${baseUnits / 1_000_000n}.${fraction}` : String(baseUnits / 1_000_000n);
}

/** A running `npm start` is left alone; saying so explains why the demo's URLs differ from its banner. */
async function noteRunningService(): Promise<void> {
  const url = `http://${userConfig.host}:${userConfig.port}/healthz`;
  const answered = await fetch(url, { signal: AbortSignal.timeout(STARTUP_NOTE_TIMEOUT_MS) }).then(
    (response) => response.ok,
    () => false,
  );
  if (answered) say(`a service already answers on ${userConfig.host}:${userConfig.port}; the demo leaves it alone and runs its own`);
}

type Json = Record<string, unknown>;

function apiClient(baseUrl: string, apiKey: string) {
  return async (method: 'GET' | 'POST', path: string, body?: Json): Promise<Json> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': apiKey },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const raw = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${raw}`);
    return (JSON.parse(raw) as { data: Json }).data;
  };
}

function text(data: Json, field: string): string {
  const value = data[field];
  if (typeof value !== 'string') throw new Error(`the API answered without ${field}: ${JSON.stringify(data)}`);
  return value;
}
