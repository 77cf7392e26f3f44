// Held inventory in live mode, settle to withdraw (docs/settlement.md#held-inventory), for USDT:tron: a payment
// settled from the Solana treasury (the merchant paid on the local Solana chain), its deposit swept into the Tron
// collector by a run of the unchanged sweep_tron_usdt_live schedule, `checkout-admin inventory withdraw` moving it to
// the rebalancing address through the inventory_withdrawal_<id> workflow and the signer's Tron relayer, and
// `inventory record-rebalanced` reading the Solana transaction that refilled the treasury; then the ledger holds
// nothing open and reconciliation of the treasury and Tron is clean. Real Postgres, Temporal, the local Solana chain,
// the signer as it starts from its environment, the admin CLI (test/support/adminCli.ts); Tron is the loopback stand-in of
// java-tron's HTTP API producing a block every 200 ms. The payment's session, deposit and settlement rows are written as
// the API, indexer and settlement write them (test/signer/sweeps/tronSweepFixture.ts), the payout as the signer posts
// it: the service's Tron indexer reads JSON-RPC, which the settlement tests cover.
import { randomBytes } from 'node:crypto';
import { createSolanaRpc, generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTronWalletApi } from '../../activities/http/tronWalletApi';
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { recordTreasuryOpening } from '../../activities/settlement/treasuryFunding';
import { envSuffix, loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { createSql, type Sql } from '../../db/client';
import { postLedger, unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { payoutChainCosts, payoutConfirmed, payoutReserved, relayerFunded } from '../../domain/ledger/ledger';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import { paymentIdForSession } from '../../domain/wire/ids';
import { tronAddressOfKey } from '../../signer/chainWrites/tronRelayer';
import { LocalSolanaChain } from '../../toolchain/localSolana/localSolanaChain';
import { startSolanaRpcServer, type SolanaRpcServer } from '../../toolchain/localSolana/solanaRpcServer';
import { createMint, mintTo, transfer, type TestMint } from '../../toolchain/localSolana/splToken';
import { ensureSweepSchedules, evmSweepScopes } from '../../worker/sweepSchedules';
import type { InventoryWithdrawalResult } from '../../workflows/inventoryWithdrawal';
import { tronAddress, tronForwarderPayment, type TronSweepFixture } from '../signer/sweeps/tronSweepFixture';
import { adminCli } from '../support/adminCli';
import { createTestDatabase, type TestDatabase } from '../support/database';
import type { TestService } from '../support/service';
import { startSweepWorkers, type SweepWorkers } from '../support/sweepWorkers';
import { startTronWalletNode, type TronWalletNode } from '../support/tron/tronWalletNode';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACTS = { factory: tronAddress(), implementation: tronAddress() };
const COLLECTOR = tronAddress();
const REBALANCE_TO = tronAddress();
const taskQueue = `held-inventory-${randomBytes(4).toString('hex')}`;
const scope = { chain: 'tron', token: 'USDT', mode: 'live' } as const;
const PAID = 10_000_000n;
const BACK_AS_USDC = 9_980_000n;

let db: TestDatabase;
let worker: Sql;
let node: TronWalletNode;
let f: TronSweepFixture;
let sweep: SweepWorkers;
let solana: LocalSolanaChain;
let rpcServer: SolanaRpcServer;
let usdc: TestMint;
let treasury: KeyPairSigner;
let view: TreasuryView;
let solanaEnv: Record<string, string>;
const cli = adminCli(() => ({ db: { url: db.url }, config: { temporal: { taskQueue } } }) as unknown as TestService);

beforeAll(async () => {
  [db, node] = await Promise.all([createTestDatabase(), startTronWalletNode()]);
  worker = createSql(db.urlAs('checkout_worker'), { max: 4 });
  node.deployFactory({ ...CONTRACTS, collector: COLLECTOR });
  node.deployCollector(COLLECTOR);
  node.setRebalanceAddress(COLLECTOR, REBALANCE_TO);
  const relayerKey = randomBytes(32).toString('hex');
  const relayer = tronAddressOfKey(relayerKey);
  // Energy rented to the relayer, and 100 TRX an operator paid it, recorded as its funding: its burns come out of it.
  node.setEnergy(relayer, { limit: 1_000_000_000n });
  const funding = node.payTrx(tronAddress(), relayer, 100_000_000n);
  node.mine(3);
  await postLedger(db.sql, relayerFunded('live', 'tron', funding, 100_000_000n));
  f = { sql: db.sql, node, contracts: CONTRACTS, token: { symbol: 'USDT', address: USDT } };

  // The live treasury on the local Solana chain, its SOL and USDC recorded as its opening.
  solana = new LocalSolanaChain();
  rpcServer = await startSolanaRpcServer(solana);
  usdc = await createMint(solana, 6);
  treasury = await generateKeyPairSigner();
  solana.svm.airdrop(treasury.address, 1_000_000_000n as never);
  await mintTo(solana, usdc, treasury.address, 50_000_000n);
  solana.produce(40);
  const suffix = envSuffix('solana', 'mainnet');
  solanaEnv = {
    [`RPC_URLS_${suffix}`]: rpcServer.url,
    [`TOKEN_USDC_${suffix}`]: `${usdc.address}:6`,
    SOLANA_TREASURY_ADDRESS_LIVE: treasury.address,
    // The local chain's mint plays mainnet USDC.
    ALLOW_MAINNET_TOKEN_OVERRIDES: 'true',
  };
  view = {
    mode: 'live',
    rpc: createSolanaRpc(rpcServer.url),
    treasury: treasury.address,
    usdcMint: usdc.address,
    tron: { api: createTronWalletApi({ fullNodeUrl: node.url }), tokens: [{ symbol: 'USDT', address: USDT }], collector: COLLECTOR },
  };
  await recordTreasuryOpening(view, db.sql, 'held-inventory-test');

  const env = {
    RPC_URLS_TRON_MAINNET: 'http://127.0.0.1:1/jsonrpc',
    TRON_DEPOSIT_FACTORY_LIVE: CONTRACTS.factory,
    TRON_DEPOSIT_FORWARDER_LIVE: CONTRACTS.implementation,
    TRON_DEPOSIT_COLLECTOR_LIVE: COLLECTOR,
    TRON_RELAYER_KEY_LIVE: relayerKey,
    TRON_HTTP_API_URL_MAINNET: node.url,
    SWEEP_MIN_AMOUNT_TRON: '0',
    INVENTORY_REBALANCE_ADDRESS_TRON_LIVE: REBALANCE_TO,
    DATABASE_URL: db.urlAs('checkout_signer'),
  };
  sweep = await startSweepWorkers(env, { taskQueue, sql: worker, scheduleId: evmSweepScheduleId(scope) });
  const { TRON_RELAYER_KEY_LIVE: _signersOnly, ...workerEnv } = env;
  const scopes = evmSweepScopes(loadConfig(workerEnv, 'worker'), createChainRegistry(loadChainsConfig(workerEnv)));
  await ensureSweepSchedules(sweep.client, { taskQueue, intervalSeconds: 3600, evmScopes: scopes });
});
afterAll(async () => {
  await sweep?.stop();
  await worker?.end({ timeout: 5 });
  await sweep?.signer.tronSweepers?.live?.sql.end({ timeout: 5 });
  await Promise.all([db?.drop(), node?.close(), rpcServer?.close()]);
});

/** The merchant paid from the treasury, as the signer posts its payout once the transaction landed. */
async function paidFromTreasury(payment: { sessionId: string; merchantId: string }, amount: bigint): Promise<void> {
  const merchantWallet = (await generateKeyPairSigner()).address;
  const before = solana.svm.getBalance(treasury.address) ?? 0n;
  const sent = await transfer(solana, usdc, treasury, [{ to: merchantWallet as Address, amount }]);
  solana.produce(40);
  const spent = before - (solana.svm.getBalance(treasury.address) ?? 0n);
  const payout = { paymentId: paymentIdForSession(payment.sessionId), mode: 'live', merchantId: payment.merchantId, amount } as const;
  expect(sent.failed).toBe(false);
  for (const posting of [
    payoutReserved(payout),
    payoutConfirmed(payout),
    payoutChainCosts(payout, { feeLamports: 5_000n, rentLamports: spent - 5_000n }),
  ])
    if (posting) await postLedger(db.sql, posting);
}

/** Ledger balances of the live mode that are not zero, by account and asset. */
async function openBalances(): Promise<Record<string, string>> {
  const rows = await db.sql<{ account: string; asset: string; balance: string }[]>`
    select account, asset, sum(amount)::text as balance from ledger_entries where mode = 'live'
    group by account, asset having sum(amount) <> 0 order by account, asset`;
  return Object.fromEntries(rows.map((r) => [`${r.account} ${r.asset}`, r.balance]));
}

describe('USDT:tron held inventory in live mode', () => {
  it('is settled, swept into the collector, withdrawn to the rebalancing address and closed by the USDC back in the treasury', async () => {
    const payment = await tronForwarderPayment(f, PAID, 'live');
    await paidFromTreasury(payment, PAID);
    expect(await sweep.triggerRun(() => node.mine(1))).toEqual({ kind: 'swept', batches: 1, failed: 0, moved: PAID.toString() });
    expect(node.balanceOf(USDT, COLLECTOR)).toBe(PAID);

    const withdraw = await cli.run(['inventory', 'withdraw', 'USDT:tron', '--amount', 'all', '--mode', 'live', '--json'], {
      INVENTORY_REBALANCE_ADDRESS_TRON_LIVE: REBALANCE_TO,
    });
    expect(withdraw.code, withdraw.stderr).toBe(0);
    const withdrawn = JSON.parse(withdraw.stdout) as Record<string, unknown>;
    expect(withdrawn).toMatchObject({ pair: 'USDT:tron', base_units: PAID.toString(), to: REBALANCE_TO, status: 'requested' });
    const blocks = setInterval(() => node.mine(1), 200);
    const result = await sweep.client.workflow
      .getHandle<() => Promise<InventoryWithdrawalResult>>(withdrawn.workflow_id as string)
      .result()
      .finally(() => clearInterval(blocks));
    expect(result).toMatchObject({ kind: 'sent' });
    expect(node.balanceOf(USDT, REBALANCE_TO)).toBe(PAID);
    expect(node.balanceOf(USDT, COLLECTOR)).toBe(0n);

    // The exchange turned it into USDC and paid the treasury.
    const exchange = await generateKeyPairSigner();
    solana.svm.airdrop(exchange.address, 1_000_000_000n as never);
    await mintTo(solana, usdc, exchange.address, BACK_AS_USDC);
    const back = await transfer(solana, usdc, exchange, [{ to: treasury.address, amount: BACK_AS_USDC }]);
    solana.produce(40);
    const recorded = await cli.run(
      ['inventory', 'record-rebalanced', 'tron', '--usdc', '9.98', '--signature', back.signature, '--mode', 'live', '--json'],
      solanaEnv,
    );
    expect(recorded.code, recorded.stderr).toBe(0);

    expect(await openBalances()).toEqual({
      'exchange_difference:tron usdc:solana': '20000',
      'gas_expense:solana sol:solana': expect.any(String),
      'account_rent:solana sol:solana': expect.any(String),
      'gas_expense:tron native:tron': '690000',
      'relayer:tron native:tron': '99310000',
      'treasury:solana sol:solana': expect.any(String),
      'treasury:solana usdc:solana': (50_000_000n - PAID + BACK_AS_USDC).toString(),
      'treasury_funding:solana sol:solana': '-1000000000',
      'treasury_funding:solana usdc:solana': '-50000000',
      'treasury_funding:tron native:tron': '-100000000',
    });
    expect(await unbalancedLedgerGroups(db.sql)).toEqual([]);
    const run = await reconcileLedger(view, db.sql);
    expect(run.differences).toEqual([]);
  });
});
