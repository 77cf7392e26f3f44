// Solana deposit sweeps on a real Temporal dev server, a real Postgres and the local Solana chain making blocks on
// its own: the schedule sweep_solana_usdc_test is created at worker start, follows SWEEP_INTERVAL_SECONDS (0 pauses
// it), and a triggered run sweeps a settled deposit into the treasury, closing its account with the rent returned,
// exactly; a second run moves nothing; a sweep whose signer was killed after signing is finished by the next run with
// the stored bytes. The signer runs as it starts in production, from its environment.
import { randomBytes } from 'node:crypto';
import { createSolanaRpc, type Address } from '@solana/kit';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { createSolanaChainWriter } from '../../signer/chainWrites/solanaChainWriter';
import type { SignerDeps } from '../../signer/activities';
import { createSolanaSweep, sweepSigner } from '../../signer/sweeps/solanaSweep';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { createSql, type Sql } from '../../db/client';
import { findChainIntent } from '../../db/repositories/chainIntents';
import { findSweep, type Sweep } from '../../db/repositories/solanaSweeps';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import { createSignerWorkers, signerDepsFromConfig } from '../../signer/worker';
import { createWorker } from '../../worker/createWorker';
import { sweepScheduleId } from '../../domain/taskQueues';
import { ensureSweepSchedules } from '../../worker/sweepSchedules';
import type { SweepSolanaUsdcResult } from '../../workflows/sweepSolanaUsdc';
import { settledDeposit, TEST_SEED, type DepositTarget } from '../signer/sweeps/sweepFixture';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let workerSql: Sql;
let solana: LocalSolana;
let connection: Connection;
let client: Client;
let nativeConnection: NativeConnection;
let workers: Worker[];
let running: Promise<unknown>;
let target: DepositTarget;
let signer: SignerDeps;
const taskQueue = `sweeps-${randomBytes(4).toString('hex')}`;

const rpc = () => createSolanaRpc(solana.rpcUrl);
const confirmed = { commitment: 'confirmed' } as const;
const lamportsOf = async (address: Address) => (await rpc().getBalance(address, confirmed).send()).value;
const usdcOf = async (owner: Address) => {
  const account = await associatedTokenAccount(owner, solana.usdcMint);
  return (
    await rpc()
      .getAccountInfo(account, { encoding: 'base64', ...confirmed })
      .send()
  ).value
    ? BigInt((await rpc().getTokenAccountBalance(account, confirmed).send()).value.amount)
    : undefined;
};

beforeAll(async () => {
  [db, solana] = await Promise.all([createTestDatabase(), startLocalSolana({ port: 0, slotMs: 50 })]);
  workerSql = createSql(db.urlAs('checkout_worker'), { max: 4 });
  const env = { ...solana.env, ...solana.signerEnv, SOLANA_PAYOUT_MEMO: 'false', DATABASE_URL: db.urlAs('checkout_signer') };
  signer = await signerDepsFromConfig(loadConfig(env, 'dev'), loadChainsConfig(env));
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
  nativeConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
  workers = [
    await createWorker({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      activities: {
        sql: workerSql,
        paymentNetwork: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig(env))),
        depositXpubs: depositXpubsFromSeeds(signer.depositSeeds),
        liveTokenPrices: {},
      },
      workflowBundle: { code: inject('workflowBundleCode') },
    }),
    ...(await createSignerWorkers({ connection: nativeConnection, namespace: 'default', sessionTaskQueue: taskQueue, signer })),
  ];
  running = Promise.all(workers.map((w) => w.run()));
  target = {
    sql: db.sql,
    worker: workerSql,
    async send(owner, amount) {
      const sent = await solana.mintUsdc(owner, amount);
      while ((await usdcOf(owner)) === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      return sent;
    },
  };
});
afterAll(async () => {
  for (const mode of ['test', 'live'] as const)
    await client?.schedule
      .getHandle(sweepScheduleId(mode))
      .delete()
      .catch(() => undefined);
  for (const w of workers ?? []) w.shutdown();
  await running;
  await nativeConnection?.close();
  await connection?.close();
  await workerSql?.end({ timeout: 5 });
  await signer?.treasuries?.test?.sql.end({ timeout: 5 });
  await solana?.stop();
  await db?.drop();
});

/** Triggers the schedule and returns the run's result. */
async function triggerRun(): Promise<SweepSolanaUsdcResult> {
  const schedule = client.schedule.getHandle(sweepScheduleId('test'));
  const before = (await schedule.describe()).info.recentActions.length;
  await schedule.trigger();
  for (;;) {
    const actions = (await schedule.describe()).info.recentActions;
    const action = actions.length > before ? actions.at(-1) : undefined;
    if (action)
      return client.workflow
        .getHandle<() => Promise<SweepSolanaUsdcResult>>(action.action.workflow.workflowId, action.action.workflow.firstExecutionRunId)
        .result();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const depositsHeld = async () =>
  BigInt(
    (
      await db.sql<
        { total: string }[]
      >`select coalesce(sum(amount), 0)::text as total from ledger_entries where account = 'deposits:solana'`
    )[0]?.total ?? '0',
  );

describe('the sweep_solana_usdc schedules', () => {
  it('are created at start, follow the configured interval and pause at 0', async () => {
    await ensureSweepSchedules(client, { taskQueue, intervalSeconds: 3600 });
    const created = await client.schedule.getHandle(sweepScheduleId('live')).describe();
    expect(created.spec.intervals).toEqual([expect.objectContaining({ every: 3_600_000 })]);
    expect(created.policies.overlap).toBe('SKIP');
    expect(created.action).toMatchObject({ workflowType: 'sweepSolanaUsdc', args: [{ mode: 'live' }], taskQueue });

    await ensureSweepSchedules(client, { taskQueue, intervalSeconds: 0 });
    expect((await client.schedule.getHandle(sweepScheduleId('test')).describe()).state.paused).toBe(true);
    await ensureSweepSchedules(client, { taskQueue, intervalSeconds: 600 });
    const updated = await client.schedule.getHandle(sweepScheduleId('test')).describe();
    expect(updated.state.paused).toBe(false);
    expect(updated.spec.intervals).toEqual([expect.objectContaining({ every: 600_000 })]);
  });

  it('a run sweeps a settled deposit into the treasury and closes its account, rent to the treasury; the next moves nothing', async () => {
    await ensureSweepSchedules(client, { taskQueue, intervalSeconds: 3600 });
    const deposit = await settledDeposit(target, [8_000_000n, 1_000_000n]);
    const treasuryUsdc = (await usdcOf(solana.treasury.address)) as bigint;
    const treasuryLamports = await lamportsOf(solana.treasury.address);
    const rent = await rpc().getMinimumBalanceForRentExemption(165n).send();

    expect(await triggerRun()).toEqual({ kind: 'swept', batches: 1, failed: 0, usdcSwept: '9000000' });
    // Two signatures: the treasury's as fee payer, the deposit key's as token authority.
    expect(await usdcOf(solana.treasury.address)).toBe(treasuryUsdc + 9_000_000n);
    expect(await lamportsOf(solana.treasury.address)).toBe(treasuryLamports + rent - 10_000n);
    expect(await usdcOf(deposit.owner)).toBeUndefined();
    expect(await depositsHeld()).toBe(0n);

    expect(await triggerRun()).toEqual({ kind: 'swept', batches: 0, failed: 0, usdcSwept: '0' });
    expect(await usdcOf(solana.treasury.address)).toBe(treasuryUsdc + 9_000_000n);
    expect(await db.sql`select group_id from ledger_entries group by group_id, asset having sum(amount) <> 0`).toEqual([]);
  });

  it('a signer killed after signing: the next run sends the stored bytes, and that one transaction lands', async () => {
    await ensureSweepSchedules(client, { taskQueue, intervalSeconds: 3600 });
    const deposit = await settledDeposit(target, [2_000_000n]);
    const treasury = signer.treasuries?.test;
    if (!treasury) throw new Error('the signer was given no test treasury');
    const deps = { ...treasury, depositSeed: TEST_SEED, mode: 'test' as const };
    // The killed run: planned and signed, never sent.
    const [id] = (await createSolanaSweep(deps).plan('killed-run')) as [string];
    await createSolanaChainWriter(deps).sign(id, sweepSigner(deps, (await findSweep(db.sql, id)) as Sweep));
    const signed = await findChainIntent(db.sql, id);

    expect(await triggerRun()).toEqual({ kind: 'swept', batches: 1, failed: 0, usdcSwept: '2000000' });
    expect(await findChainIntent(db.sql, id)).toMatchObject({
      status: expect.stringMatching(/^(confirmed|finalized)$/),
      signature: signed?.signature,
      wireTransaction: signed?.wireTransaction,
      supersededSignatures: [],
    });
    expect(await usdcOf(deposit.owner)).toBeUndefined();
    expect(await depositsHeld()).toBe(0n);
  });
});
