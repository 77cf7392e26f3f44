// EVM forwarder sweeps on a real Temporal dev server, a real Postgres and a Hardhat node mining on its own: the
// schedule sweep_evm_base_usdc_test is created at worker start for a chain with an RPC endpoint and a forwarder
// factory (or a collector for HD addresses), and a triggered run sweeps two forwarder deposits into the collector
// with one sweepMany from the relayer, the ledger moved and the gas posted; the next run moves nothing. A run then
// sweeps a forwarder deposit and an HD deposit (a session from before the forwarders) together, the HD one topped up
// by the relayer and sent by its own key to EVM_DEPOSIT_COLLECTOR_TEST. The signer runs as it starts in production,
// from its environment (EVM_RELAYER_KEY_TEST, DEPOSIT_MNEMONIC_TEST).
import { randomBytes } from 'node:crypto';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { erc20Abi, toHex, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../domain/ledger/ledger';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import { ensureSweepSchedules, evmSweepScopes } from '../../worker/sweepSchedules';
import { connectSigner, deposit, forwarderSession, hdSession, ledgerBalance, type EvmSweepFixture } from '../signer/sweeps/evmSweepFixture';
import { COLLECTOR, startDepositContractsChain, SWEEPER } from '../contracts/depositContractsFixture';
import { createTestDatabase } from '../support/database';
import { createSql, type Sql } from '../../db/client';
import { startSweepWorkers, type SweepWorkers } from '../support/sweepWorkers';

let f: EvmSweepFixture;
let worker: Sql;
let usdc: Address;
let sweep: SweepWorkers;
let env: NodeJS.ProcessEnv;
const taskQueue = `evm-sweeps-${randomBytes(4).toString('hex')}`;
const scope = { chain: 'base', token: 'USDC', mode: 'test' } as const;

beforeAll(async () => {
  const [contracts, db] = await Promise.all([startDepositContractsChain(), createTestDatabase()]);
  f = { contracts, db, signer: connectSigner(db) };
  worker = createSql(db.urlAs('checkout_worker'), { max: 4 });
  const { chain } = contracts;
  usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
  env = {
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${usdc}:6`,
    EVM_DEPOSIT_FACTORY_TEST: contracts.factory,
    EVM_DEPOSIT_FORWARDER_TEST: contracts.forwarder,
    EVM_RELAYER_KEY_TEST: toHex(chain.account(SWEEPER).getHdKey().privateKey!),
    DEPOSIT_MNEMONIC_TEST: generateMnemonic(wordlist),
    EVM_DEPOSIT_COLLECTOR_TEST: chain.account(COLLECTOR).address,
    DATABASE_URL: db.urlAs('checkout_signer'),
  };
  sweep = await startSweepWorkers(env, { taskQueue, sql: worker, scheduleId: evmSweepScheduleId(scope) });
});
afterAll(async () => {
  await sweep?.stop();
  await Promise.all([f?.signer.end({ timeout: 5 }), worker?.end({ timeout: 5 })]);
  await sweep?.signer.evmSweepers?.['base:test']?.sql.end({ timeout: 5 });
  await Promise.all([f?.contracts.chain.stop(), f?.db.drop()]);
});

describe('the sweep_evm_<chain>_<token>_<mode> schedules', () => {
  it('exist for each chain with an RPC endpoint and a forwarder factory or a collector, and start the EVM sweep', async () => {
    const { EVM_RELAYER_KEY_TEST: _signersOnly, DEPOSIT_MNEMONIC_TEST: _signersToo, ...workerEnv } = env;
    const config = loadConfig(workerEnv, 'worker');
    const scopes = evmSweepScopes(config, createChainRegistry(loadChainsConfig(env)));
    expect(scopes).toContainEqual(scope);
    expect(scopes.every((s) => s.chain === 'base' && s.mode === 'test')).toBe(true);
    // A mode whose sessions all have HD addresses sweeps them too, given a collector.
    const { EVM_DEPOSIT_FACTORY_TEST: _factory, EVM_DEPOSIT_FORWARDER_TEST: _forwarder, ...hdOnlyEnv } = workerEnv;
    expect(evmSweepScopes(loadConfig(hdOnlyEnv, 'worker'), createChainRegistry(loadChainsConfig(env)))).toContainEqual(scope);
    const { EVM_DEPOSIT_COLLECTOR_TEST: _collector, ...neitherEnv } = hdOnlyEnv;
    expect(evmSweepScopes(loadConfig(neitherEnv, 'worker'), createChainRegistry(loadChainsConfig(env)))).toEqual([]);
    await ensureSweepSchedules(sweep.client, { taskQueue, intervalSeconds: 3600, evmScopes: [scope] });
    const created = await sweep.client.schedule.getHandle(evmSweepScheduleId(scope)).describe();
    expect(created.policies.overlap).toBe('SKIP');
    expect(created.action).toMatchObject({ workflowType: 'sweepEvmDeposits', args: [scope], taskQueue });
  });

  it('a run sweeps two forwarder deposits into the collector in one transaction; the next moves nothing', async () => {
    await ensureSweepSchedules(sweep.client, { taskQueue, intervalSeconds: 3600, evmScopes: [scope] });
    const { chain } = f.contracts;
    for (const amount of [4_000_000n, 6_000_000n]) await deposit(f, 'base', await forwarderSession(f), usdc, amount);
    // Blocks on their own from here: the sweep waits for base's depth.
    await chain.setIntervalMining(20);
    const nonce = await chain.publicClient.getTransactionCount({ address: chain.account(SWEEPER).address });

    expect(await sweep.triggerRun()).toEqual({ kind: 'swept', batches: 1, failed: 0, moved: '10000000' });
    expect(
      await chain.publicClient.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [chain.account(COLLECTOR).address],
      }),
    ).toBe(10_000_000n);
    expect(await chain.publicClient.getTransactionCount({ address: chain.account(SWEEPER).address })).toBe(nonce + 1);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.collector('base'), tokenAsset('USDC', 'base'))).toBe(10_000_000n);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.depositsOn('base'), tokenAsset('USDC', 'base'))).toBe(0n);

    expect(await sweep.triggerRun()).toEqual({ kind: 'swept', batches: 0, failed: 0, moved: '0' });
    expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  });

  it('a run sweeps a forwarder deposit and an HD deposit together: both land in the collector', async () => {
    await ensureSweepSchedules(sweep.client, { taskQueue, intervalSeconds: 3600, evmScopes: [scope] });
    const { chain } = f.contracts;
    const hd = await hdSession(f, sweep.signer.depositSeeds.test!);
    await deposit(f, 'base', await forwarderSession(f), usdc, 3_000_000n);
    await deposit(f, 'base', hd, usdc, 2_000_000n);
    await chain.setIntervalMining(20);
    const before = await chain.publicClient.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [chain.account(COLLECTOR).address],
    });

    expect(await sweep.triggerRun()).toEqual({ kind: 'swept', batches: 2, failed: 0, moved: '5000000' });
    expect(
      await chain.publicClient.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [chain.account(COLLECTOR).address],
      }),
    ).toBe(before + 5_000_000n);
    expect(await chain.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [hd.address] })).toBe(0n);
    expect(await chain.publicClient.getTransactionCount({ address: hd.address })).toBe(1);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.depositsOn('base'), tokenAsset('USDC', 'base'))).toBe(0n);
    expect(await ledgerBalance(f.db.sql, ACCOUNT.depositGasOn('base'), nativeAsset('base'))).toBe(
      await chain.publicClient.getBalance({ address: hd.address }),
    );
    expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  }, 180_000);
});
