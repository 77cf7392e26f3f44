// Forwarder sweeps on Tron, on a real Temporal dev server and a real Postgres, against the loopback stand-in of
// java-tron's HTTP API producing blocks on its own: the schedule sweep_tron_usdt_test exists for a mode with a Tron
// factory, and a triggered run of the unchanged sweepEvmDeposits workflow sweeps two Tron forwarder deposits with one
// sweepMany from the Tron relayer, the ledger moved by the Swept logs and the burned sun posted; the next run moves
// nothing. The signer runs as it starts in production, from its environment (TRON_RELAYER_KEY_TEST,
// TRON_HTTP_API_URL_TESTNET).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { createSql, type Sql } from '../../db/client';
import { unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../domain/ledger/ledger';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import { ensureSweepSchedules, evmSweepScopes } from '../../worker/sweepSchedules';
import { ledgerBalance } from '../signer/sweeps/evmSweepFixture';
import { tronAddressOfKey } from '../../signer/chainWrites/tronRelayer';
import { tronAddress, tronForwarderDeposit, type TronSweepFixture } from '../signer/sweeps/tronSweepFixture';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startSweepWorkers, type SweepWorkers } from '../support/sweepWorkers';
import { startTronWalletNode, type TronWalletNode } from '../support/tron/tronWalletNode';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACTS = { factory: tronAddress(), implementation: tronAddress() };
const COLLECTOR = tronAddress();
const taskQueue = `tron-sweeps-${randomBytes(4).toString('hex')}`;
const scope = { chain: 'tron', token: 'USDT', mode: 'test' } as const;

let db: TestDatabase;
let worker: Sql;
let node: TronWalletNode;
let f: TronSweepFixture;
let sweep: SweepWorkers;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  [db, node] = await Promise.all([createTestDatabase(), startTronWalletNode()]);
  worker = createSql(db.urlAs('checkout_worker'), { max: 4 });
  node.deployFactory({ ...CONTRACTS, collector: COLLECTOR });
  const relayerKey = randomBytes(32).toString('hex');
  // Energy delegated to the relayer, as a rented supply would: a sweep is signed only when its energy is covered.
  node.setEnergy(tronAddressOfKey(relayerKey), { limit: 1_000_000_000n });
  f = { sql: db.sql, node, contracts: CONTRACTS, token: { symbol: 'USDT', address: USDT } };
  env = {
    // The indexer's endpoint: a network without one has no deposits to sweep. Nothing here calls it.
    RPC_URLS_TRON_TESTNET: 'http://127.0.0.1:1/jsonrpc',
    TOKEN_USDT_TRON_TESTNET: `${USDT}:6`,
    TRON_DEPOSIT_FACTORY_TEST: CONTRACTS.factory,
    TRON_DEPOSIT_FORWARDER_TEST: CONTRACTS.implementation,
    TRON_RELAYER_KEY_TEST: relayerKey,
    TRON_HTTP_API_URL_TESTNET: node.url,
    SWEEP_MIN_AMOUNT_TRON: '0',
    DATABASE_URL: db.urlAs('checkout_signer'),
  };
  sweep = await startSweepWorkers(env, { taskQueue, sql: worker, scheduleId: evmSweepScheduleId(scope) });
});
afterAll(async () => {
  await sweep?.stop();
  await worker?.end({ timeout: 5 });
  await sweep?.signer.tronSweepers?.test?.sql.end({ timeout: 5 });
  await Promise.all([db?.drop(), node?.close()]);
});

/** A run of the schedule, the stand-in producing a block every 200 ms meanwhile. */
const triggerRun = () => sweep.triggerRun(() => node.mine(1));

describe('the sweep_tron_<token>_<mode> schedules', () => {
  it('exist for a mode with a Tron factory, and a run sweeps two forwarder deposits in one sweepMany; the next moves nothing', async () => {
    const { TRON_RELAYER_KEY_TEST: _signersOnly, ...workerEnv } = env;
    const scopes = evmSweepScopes(loadConfig(workerEnv, 'worker'), createChainRegistry(loadChainsConfig(workerEnv)));
    expect(scopes).toEqual([scope]);
    await ensureSweepSchedules(sweep.client, { taskQueue, intervalSeconds: 3600, evmScopes: scopes });
    const created = await sweep.client.schedule.getHandle('sweep_tron_usdt_test').describe();
    expect(created.action).toMatchObject({ workflowType: 'sweepEvmDeposits', args: [scope], taskQueue });

    const addresses = [await tronForwarderDeposit(f, 4_000_000n), await tronForwarderDeposit(f, 6_000_000n)];
    const landedBefore = node.landedCount();
    expect(await triggerRun()).toEqual({ kind: 'swept', batches: 1, failed: 0, moved: '10000000' });
    expect(node.landedCount()).toBe(landedBefore + 1);
    expect(node.balanceOf(USDT, COLLECTOR)).toBe(10_000_000n);
    expect(addresses.map((a) => node.balanceOf(USDT, a))).toEqual([0n, 0n]);
    expect(await ledgerBalance(db.sql, ACCOUNT.collector('tron'), tokenAsset('USDT', 'tron'))).toBe(10_000_000n);
    expect(await ledgerBalance(db.sql, ACCOUNT.depositsOn('tron'), tokenAsset('USDT', 'tron'))).toBe(0n);
    expect(await ledgerBalance(db.sql, ACCOUNT.gasExpenseOn('tron'), nativeAsset('tron'))).toBe(345_000n);

    expect(await triggerRun()).toEqual({ kind: 'swept', batches: 0, failed: 0, moved: '0' });
    expect(await unbalancedLedgerGroups(db.sql)).toEqual([]);
  });
});
