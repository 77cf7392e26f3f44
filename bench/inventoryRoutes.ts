// How long the treasury waits to get back what it paid out, per route (docs/settlement.md#what-is-offered), and the gas
// of a USDT swap. The stack is the one `npm start` and `npm run demo` run (bin/demo/demoStack.ts): the local Hardhat
// chain as base's test network with its deposit contracts, CCTP stand-in and Uniswap V3 USDT/USDC pool, the local
// Solana chain with the treasury and the CCTP receive stand-in, the attestation stand-in, the workers with the signer.
// Each payment is paid through the API with a real token transfer and its payout confirmed from the treasury; then the
// demo's inventory path (bin/demo/inventoryPath.ts) triggers the sweep, swap and transfer schedules at once and mines
// 40 blocks a second. The clock runs from payouts.confirmed_at to the treasury's USDC balance rising by the receive;
// the gas is each swap's receipt's. The payments go one after another: one transfer per chain is in flight at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { address as solanaAddress } from '@solana/kit';
import type { Address } from 'viem';
import { startDemoStack } from '../bin/demo/demoStack';
import { followInventoryPath } from '../bin/demo/inventoryPath';
import { usdcBalance } from '../bin/demo/solanaWallet';
import type { DevStack } from '../bin/devStack';
import { createSql } from '../db/client';
import { CHAIN_FACTS } from '../domain/chains/chains';
import { paymentIdForSession } from '../domain/wire/ids';
import { startWebhookReceiver } from '../test/support/webhookReceiver';
import { median, progress, type Row } from './report';
import { waitFor } from './waitFor';

const PAYMENTS_PER_ROUTE = 3;
const AMOUNT_USD = 25.5;
const ROUTES = [
  { route: 'cctp', token: 'USDC' },
  { route: 'swap+cctp', token: 'USDT' },
] as const;

interface Refill {
  route: (typeof ROUTES)[number]['route'];
  ms: number;
  swapGas: bigint | undefined;
}

export async function benchInventoryRoutes(): Promise<Row[]> {
  progress(`inventory routes: the dev stack, then ${PAYMENTS_PER_ROUTE} payments on base per route, each followed back to the treasury`);
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-bench-routes-'));
  const receiver = await startWebhookReceiver();
  let stack: DevStack | undefined;
  try {
    stack = await startDemoStack({ dataDir, logLevel: 'warn', keyLabel: 'npm run bench', progress: () => undefined });
    const refills: Refill[] = [];
    for (const { route, token } of ROUTES) {
      for (let i = 1; i <= PAYMENTS_PER_ROUTE; i++) {
        const refill = await payAndRefill(stack, receiver.url, route, token);
        progress(`${route} ${i}/${PAYMENTS_PER_ROUTE}: payout → refill ${refill.ms} ms`);
        refills.push(refill);
      }
    }
    return rows(refills);
  } finally {
    await stack?.stop();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function payAndRefill(stack: DevStack, webhookUrl: string, route: Refill['route'], token: 'USDC' | 'USDT'): Promise<Refill> {
  const chain = stack.devChain;
  const solana = stack.localSolana;
  const merchantWallet = stack.merchant.settlementWallet;
  if (!chain || !solana || !merchantWallet) throw new Error('the dev stack started without its local chains');
  const api = async (method: 'GET' | 'POST', path: string, body?: object): Promise<Record<string, string>> => {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': stack.testKey },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  const { session_id: sessionId } = await api('POST', '/checkout/sessions', {
    merchant_id: stack.merchant.id,
    transaction_id: `bench-${route}-${Date.now()}`,
    amount_usd: AMOUNT_USD,
    webhook_url: webhookUrl,
  });
  if (!sessionId) throw new Error('create-session answered no session_id');
  const selected = await api('POST', '/checkout/sessions/select-payment', { session_id: sessionId, token, chain: chain.chain });
  const depositAddress = selected.deposit_address as Address;
  await chain.local.transfer(
    token === 'USDT' ? chain.usdt : chain.usdc,
    chain.payer,
    depositAddress,
    BigInt(selected.amount_base_units ?? 0),
  );
  await chain.local.mine(CHAIN_FACTS[chain.chain].confirmations - 1);
  const depositConfirmedAt = Date.now();
  await waitFor(`${sessionId} completed`, async () =>
    (await api('GET', `/checkout/sessions/${sessionId}`)).status === 'completed' ? true : undefined,
  );
  const sql = createSql(stack.databaseUrl, { max: 1 });
  const payoutConfirmed = await waitFor(`the payout of ${sessionId} confirmed`, async () => {
    const [row] = await sql<{ confirmed: Date }[]>`
      select confirmed_at as confirmed from payouts
      where payment_id = ${paymentIdForSession(sessionId)} and confirmed_at is not null`;
    return row?.confirmed.getTime();
  }).finally(() => sql.end({ timeout: 5 }));
  const path = await followInventoryPath({
    temporal: stack.temporal,
    devChain: chain,
    attestationUrl: stack.attestationUrl ?? '',
    token,
    sessionId,
    depositAddress,
    depositConfirmedAt,
    treasuryUsdc: () => usdcBalance(solana.rpcUrl, solana.treasury.address, solana.usdcMint),
    merchantUsdc: () => usdcBalance(solana.rpcUrl, solanaAddress(merchantWallet), solana.usdcMint),
    formatUsdc: (baseUnits) => baseUnits.toString(),
    say: () => undefined,
    detail: () => undefined,
  });
  return { route, ms: path.refilledAt - payoutConfirmed, swapGas: path.swapGas };
}

function rows(refills: Refill[]): Row[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const setting =
    "on the dev stack's stand-ins (Hardhat as base's test network, 64 confirmations; CCTP burn, attestation and receive), the schedules triggered at once and 40 blocks mined a second: the workflows' polls and the chain's depth, without the schedules' intervals a deployment adds (up to a SWEEP_INTERVAL_SECONDS and a TRANSFER_INTERVAL_SECONDS, a second one for the swap)";
  const timed = ROUTES.map(({ route, token }) => {
    const ms = refills.filter((r) => r.route === route).map((r) => r.ms);
    return {
      benchmark: `payout → treasury refilled, route ${route}`,
      figure: `median ${seconds(median(ms))} (min ${seconds(Math.min(...ms))}, max ${seconds(Math.max(...ms))}, n = ${ms.length})`,
      detail: `${token} on base: from payouts.confirmed_at to the treasury's USDC raised by receive_message; sweep${route === 'swap+cctp' ? ', swap in the collector' : ''}, burn, attestation, receive; ${setting}`,
    };
  });
  const gas = refills.flatMap((r) => (r.swapGas === undefined ? [] : [r.swapGas]));
  return [
    {
      benchmark: 'payout → treasury refilled, route treasury',
      figure: 'none: no chain to cross',
      detail:
        'USDC on solana: the deposit account is swept into the treasury itself (sweep_solana_usdc, every SWEEP_INTERVAL_SECONDS), in the same network as the payout',
    },
    ...timed,
    {
      benchmark: 'payout → treasury refilled, route hold',
      figure: 'an operator action',
      detail:
        'USDC and USDT on bsc, USDT on tron and solana: held as inventory until an operator runs checkout-admin inventory withdraw, exchanges it and records the USDC with inventory record-rebalanced (docs/settlement.md#held-inventory)',
    },
    {
      benchmark: 'gas per USDT swap',
      figure: `first ${gas[0]}, later ${gas.slice(1).join(', ')}`,
      detail:
        "the collector's swap of each 25.5 USDT deposit, one after another: DepositCollector.swap → SwapRouter02 exactInputSingle in the 0.01% USDT/USDC pool at 1:1 (Uniswap V3 from its npm artifacts on Hardhat), gasUsed from each receipt; the first costs 17100 more, as one storage slot written from zero does",
    },
  ];
}
