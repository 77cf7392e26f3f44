// `treasury record-relayer-funding` as operators run it (test/support/adminCli.ts): an operator's payment to the relayer
// on a local Hardhat chain (as base testnet) and on the stand-in Tron node is recorded from the chain's own record once
// final, after which `ledger reconcile` finds relayer:<chain> agreeing; recording it again changes nothing, and a
// transaction that does not pay the relayer is refused with one line and posts nothing. `tron resources` reads the
// recorded Tron relayer's energy and TRX from the same stand-in.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hash } from 'viem';
import { tronAddressFromEvmHex } from '../../domain/addresses/tron';
import { forwarderSweepEnergy } from '../../domain/chains/tronEnergy';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { startTestService, type TestService } from '../support/service';
import { startTronWalletNode, type TronWalletNode } from '../support/tron/tronWalletNode';
import { startTreasuryChain, type TreasuryChain } from '../support/treasuryChain';

let service: TestService;
let solana: TreasuryChain;
let evm: LocalChain;
let tron: TronWalletNode;
let env: Record<string, string>;
const cli = adminCli(() => service);
/** The recorded getchainparameters the stand-in serves. */
const RECORDED_PRICES = { energyFeeSun: 210n, bandwidthFeeSun: 1_000n, dynamicEnergyMaxFactor: 34_000n };

beforeAll(async () => {
  [service, solana, evm, tron] = await Promise.all([
    startTestService({ worker: false }),
    startTreasuryChain(1_000_000n),
    createLocalChain(),
    startTronWalletNode(),
  ]);
  env = {
    ...solana.env,
    RPC_URLS_BASE_TESTNET: evm.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(evm.chainId),
    TRON_HTTP_API_URL_TESTNET: tron.url,
    // Tron is reconciled where the indexer watches a token there; the stand-in holds none of it.
    TOKEN_USDT_TRON_TESTNET: `${tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`)}:6`,
  };
  // The treasury's own funding, so that a run with nothing else unrecorded reports no difference.
  const funded = await cli.run(['treasury', 'record-funding', '--mode', 'test', '--signature', solana.topUp], env);
  expect(funded.code, funded.stderr).toBe(0);
});
afterAll(async () => {
  await tron?.close();
  await evm?.stop();
  await solana?.stop();
  await service?.stop();
});

const record = (chain: string, tx: string, ...flags: string[]) =>
  cli.run(['treasury', 'record-relayer-funding', '--mode', 'test', '--chain', chain, '--tx', tx, ...flags], env);

async function reconcile() {
  const run = await cli.run(['ledger', 'reconcile', '--json'], env);
  const out = JSON.parse(run.stdout) as {
    runs: Array<{ balances: Array<{ account: string; ledger: string; observed: string }>; differences: Array<{ account: string }> }>;
  };
  const [only] = out.runs;
  return { code: run.code, balances: only?.balances ?? [], differences: (only?.differences ?? []).map((d) => d.account) };
}

const groupRows = async (groupId: string) =>
  (await service.db.sql<{ n: number }[]>`select count(*)::int as n from ledger_entries where group_id = ${groupId}`)[0]?.n;

const recordRelayer = (chain: string, address: string) =>
  service.db
    .sql`insert into relayer_balances (chain, mode, address, balance_wei, observed_at) values (${chain}, 'test', ${address}, 0, now())`;

async function pay(to: Address, value: bigint): Promise<Hash> {
  const hash = await evm.walletClient.sendTransaction({ to, value });
  await evm.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

// Each test runs several CLI processes: seconds each on a loaded machine.
describe('checkout-admin treasury record-relayer-funding', { timeout: 180_000 }, () => {
  it('records a final EVM top-up of the recorded relayer once, after which relayer:base agrees; refuses what does not pay it', async () => {
    const relayer = privateKeyToAccount(generatePrivateKey()).address;
    const topUp = await pay(relayer, 5n * 10n ** 18n);
    const group = `relayer-funding:base:${topUp}`;

    expectOneLineError(await record('base', topUp), 1, /the test relayer's address on base is not recorded yet/);
    await recordRelayer('base', relayer);
    const unknown = `0x${'12'.repeat(32)}`;
    expectOneLineError(await record('base', unknown), 1, new RegExp(`^error: transaction ${unknown} is not on base testnet$`));
    const publicChain = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'CHAIN_ID_BASE_TESTNET'));
    expectOneLineError(
      await cli.run(['treasury', 'record-relayer-funding', '--mode', 'test', '--chain', 'base', '--tx', topUp], publicChain),
      1,
      new RegExp(`^error: the RPC URL for base testnet serves chain ${evm.chainId}, not 84532$`),
    );
    expectOneLineError(await record('base', topUp), 1, new RegExp(`^error: transaction ${topUp} has 1 of the 64 confirmations base needs`));
    // Reconciliation reads as deep as recording requires: the top-up shows there once it can be recorded.
    await evm.mine(63);
    const before = await reconcile();
    expect(before.code).toBe(3);
    expect(before.differences).toEqual(['relayer:base']);
    const recorded = await record('base', topUp);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain(`test relayer on base ${relayer}: recorded ${group}: 5.000000000000000000 native:base`);

    const after = await reconcile();
    expect(after.code).toBe(0);
    expect(after.differences).toEqual([]);
    expect(after.balances).toContainEqual(
      expect.objectContaining({ account: 'relayer:base', ledger: '5000000000000000000', observed: '5000000000000000000' }),
    );

    const again = await record('base', topUp, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      mode: 'test',
      chain: 'base',
      relayer,
      group_id: group,
      asset: 'native:base',
      amount: '5.000000000000000000',
      base_units: '5000000000000000000',
      already_recorded: true,
    });
    expect(await groupRows(group)).toBe(2);
    const [audit] = await service.db.sql<{ targets: string[] }[]>`
      select targets from admin_audit_events where action = 'treasury.record-relayer-funding' and outcome = 'ok' order by id desc limit 1`;
    expect(audit?.targets).toEqual([group]);

    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    const stray = await pay(elsewhere, 10n ** 18n);
    await evm.mine(64);
    expectOneLineError(
      await record('base', stray),
      1,
      new RegExp(`^error: transaction ${stray} does not pay the test relayer on base \\(${relayer}\\): it pays ${elsewhere}$`, 'i'),
    );
    expect(await groupRows(`relayer-funding:base:${stray}`)).toBe(0);
  });

  it('records a solidified TRX payment to the recorded Tron relayer, in sun; refuses one to another account', async () => {
    const randomTron = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);
    const [relayer, operator] = [randomTron(), randomTron()];
    tron.setTrx(operator, 500_000_000n);
    await recordRelayer('tron', relayer);
    const topUp = tron.payTrx(operator, relayer, 100_000_000n);
    const group = `relayer-funding:tron:${topUp}`;
    expect((await reconcile()).differences).toEqual(['relayer:tron']);

    expectOneLineError(await record('tron', topUp), 1, new RegExp(`^error: transaction ${topUp} is not solidified on tron yet`));
    tron.mineEmpty(2);
    const recorded = await record('tron', topUp);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain(`test relayer on tron ${relayer}: recorded ${group}: 100.000000 native:tron`);
    const after = await reconcile();
    expect(after.code).toBe(0);
    expect(after.balances).toContainEqual(expect.objectContaining({ account: 'relayer:tron', ledger: '100000000', observed: '100000000' }));

    const again = await record('tron', topUp);
    expect(again.stdout).toContain(`${group} was already recorded (100.000000 native:tron); nothing changed`);
    expect(await groupRows(group)).toBe(2);

    const stray = tron.payTrx(operator, randomTron(), 1_000_000n);
    tron.mineEmpty(2);
    expectOneLineError(await record('tron', stray), 1, /does not pay the test relayer on tron/);
    expect(await groupRows(`relayer-funding:tron:${stray}`)).toBe(0);
    expectOneLineError(
      await record('tron', 'ef'.repeat(32)),
      1,
      new RegExp(`^error: transaction ${'ef'.repeat(32)} is not on tron testnet$`),
    );
    expectOneLineError(await record('tron', `0x${stray}`), 1, /is not a tron transaction hash \(64 hex digits\)$/);
  });
});

describe('checkout-admin tron resources', { timeout: 180_000 }, () => {
  it("shows the recorded Tron relayer's energy available and used, TRX staked for energy and held, and a sweep's estimate", async () => {
    const relayer = tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);
    await service.db.sql`
      insert into relayer_balances (chain, mode, address, balance_wei, observed_at) values ('tron', 'test', ${relayer}, 0, now())
      on conflict (chain, mode) do update set address = excluded.address`;
    tron.setTrx(relayer, 12_500_000n);
    tron.setEnergy(relayer, { limit: 650_000n, stakedSun: 3_000_000_000n });

    const json = await cli.run(['tron', 'resources', '--mode', 'test', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      relayer,
      energy_limit: '650000',
      energy_used: '0',
      energy_available: '650000',
      staked_for_energy_trx: '3000.000000',
      trx_balance: '12.500000',
      energy_fee_sun: '210',
      estimate: { first_sweep_energy: String(forwarderSweepEnergy(1, RECORDED_PRICES)) },
    });
    const text = await cli.run(['tron', 'resources', '--mode', 'test'], env);
    expect(text.stdout).toMatch(/energy available\s+650000 of 650000 \(0 used\)/);

    expectOneLineError(await cli.run(['tron', 'resources', '--mode', 'live'], env), 1, /set TRON_HTTP_API_URL_MAINNET$/);
  });
});
