// The CCTP route as the service runs it, on a real Temporal dev server: the schedule transfer_usdc_ethereum_test
// triggers transferUsdc, which has the signer start a transfer of the collector's USDC and starts its workflow
// transfer_<id>; that workflow carries it through burned → attested → received on the stand-ins (Hardhat with the
// TokenMessengerV2 stand-in and the DepositCollector, the loopback attestation server, the local Solana chain).
// swap_usdt_ethereum_test swaps the collector's USDT to USDC through Uniswap V3 on the same chain first.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { depositSeeds } from '../../domain/addresses/depositSeed';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { loadChainsConfig } from '../../config/chains';
import { unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { findSwap } from '../../db/repositories/swaps';
import { findTransfer } from '../../db/repositories/transfers';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { swapScheduleId } from '../../domain/swaps/swapWorkflowIds';
import { createUsdtSwapRoute } from '../../signer/swaps/usdtSwap';
import { transferScheduleId, transferWorkflowId } from '../../domain/cctp/transferWorkflowIds';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { createSignerWorkers } from '../../signer/worker';
import { createWorker } from '../../worker/createWorker';
import { ensureTransferSchedules } from '../../worker/transferSchedules';
import type { CctpTransferResult, TransferUsdcResult } from '../../workflows/cctpTransfer';
import type { SwapUsdtResult } from '../../workflows/usdtSwap';
import { startCctpRoute, type CctpRouteFixture } from '../signer/transfers/cctpRouteFixture';

let f: CctpRouteFixture;
let connection: Connection;
let client: Client;
let nativeConnection: NativeConnection;
let workers: Worker[];
let running: Promise<unknown>;
const taskQueue = `transfers-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  f = await startCctpRoute({ swaps: true });
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
  nativeConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const seeds = depositSeeds({ test: undefined, live: undefined });
  workers = [
    await createWorker({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      activities: {
        sql: f.signerSql,
        paymentNetwork: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig({}))),
        depositXpubs: depositXpubsFromSeeds(seeds),
        liveTokenPrices: {},
      },
      workflowBundle: { code: inject('workflowBundleCode') },
    }),
    ...(await createSignerWorkers({
      connection: nativeConnection,
      namespace: 'default',
      sessionTaskQueue: taskQueue,
      signer: {
        depositSeeds: seeds,
        cctpRoutes: { test: { ethereum: f.routeDeps() } },
        swapRoutes: { test: { ethereum: f.swapRouteDeps() } },
      },
    })),
  ];
  running = Promise.all(workers.map((w) => w.run()));
}, 120_000);

afterAll(async () => {
  for (const mode of ['test', 'live'] as const) {
    for (const chain of ['ethereum', 'optimism', 'arbitrum', 'base', 'polygon'] as const)
      for (const scheduleId of [transferScheduleId(chain, mode), swapScheduleId(chain, mode)])
        await client?.schedule
          .getHandle(scheduleId)
          .delete()
          .catch(() => undefined);
  }
  for (const w of workers ?? []) w.shutdown();
  await running;
  await nativeConnection?.close();
  await connection?.close();
  await f?.stop();
});

async function triggerRun<Result = TransferUsdcResult>(scheduleId = transferScheduleId('ethereum', 'test')): Promise<Result> {
  const schedule = client.schedule.getHandle(scheduleId);
  const before = (await schedule.describe()).info.recentActions.length;
  await schedule.trigger();
  for (;;) {
    const actions = (await schedule.describe()).info.recentActions;
    const action = actions.length > before ? actions.at(-1) : undefined;
    if (action)
      return client.workflow
        .getHandle<() => Promise<Result>>(action.action.workflow.workflowId, action.action.workflow.firstExecutionRunId)
        .result();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the transfer_usdc schedules and transfer_<id> workflows', () => {
  it('are created for every CCTP chain and mode, and pause at 0', async () => {
    await ensureTransferSchedules(client, { taskQueue, intervalSeconds: 3600 });
    const created = await client.schedule.getHandle(transferScheduleId('polygon', 'live')).describe();
    expect(created.policies.overlap).toBe('SKIP');
    expect(created.action).toMatchObject({ workflowType: 'transferUsdc', args: [{ mode: 'live', chain: 'polygon' }], taskQueue });
    const swaps = await client.schedule.getHandle(swapScheduleId('polygon', 'live')).describe();
    expect(swaps.policies.overlap).toBe('SKIP');
    expect(swaps.action).toMatchObject({ workflowType: 'swapUsdt', args: [{ mode: 'live', chain: 'polygon' }], taskQueue });
    await ensureTransferSchedules(client, { taskQueue, intervalSeconds: 0 });
    expect((await client.schedule.getHandle(transferScheduleId('base', 'test')).describe()).state.paused).toBe(true);
  });

  it('a run moves the collector’s USDC to the treasury through one transfer, and a pair without a route does nothing', async () => {
    await ensureTransferSchedules(client, { taskQueue, intervalSeconds: 3600 });
    expect(await triggerRun()).toMatchObject({ kind: 'idle' });
    await f.evm.mint(f.usdc, f.collector, 20_000_000n);
    const treasuryBefore = await f.treasuryUsdcBalance();
    const started = await triggerRun();
    expect(started).toMatchObject({ kind: 'started' });
    const { transferId } = started as { transferId: string };
    const startedAt = performance.now();
    const result = await client.workflow.getHandle<() => Promise<CctpTransferResult>>(transferWorkflowId(transferId)).result();
    console.log(
      `transfer_${transferId}: started to treasury credited in ${(performance.now() - startedAt).toFixed(0)} ms through Temporal (poll intervals included)`,
    );
    expect(result).toEqual({ kind: 'received', received: String(20_000_000n - 2_000n) });
    expect(await f.treasuryUsdcBalance()).toBe(treasuryBefore + 20_000_000n - 2_000n);
    expect(await findTransfer(f.db.sql, transferId)).toMatchObject({ stage: 'received' });
    expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
    expect(await triggerRun()).toMatchObject({ kind: 'idle' });
    expect(
      await client.workflow.execute('transferUsdc', {
        taskQueue,
        workflowId: `no-route-${randomBytes(4).toString('hex')}`,
        args: [{ mode: 'test', chain: 'base' }],
      }),
    ).toEqual({ kind: 'no_route' });
  }, 120_000);

  it('a swap run sells the collector’s USDT at the quote through the real pool, and the next transfer run carries the USDC', async () => {
    await ensureTransferSchedules(client, { taskQueue, intervalSeconds: 3600 });
    const usdt = f.swaps!.usdt;
    const usdtBalance = () => f.evm.tokenBalance(usdt, f.collector);
    expect(await triggerRun<SwapUsdtResult>(swapScheduleId('ethereum', 'test'))).toMatchObject({ kind: 'idle' });
    await f.evm.mint(usdt, f.collector, 30_000_000n);
    const usdcBefore = await f.collectorBalance();

    const swapped = await triggerRun<SwapUsdtResult>(swapScheduleId('ethereum', 'test'));

    expect(swapped).toMatchObject({ kind: 'swapped' });
    const { swapId, amountOut } = swapped as { swapId: string; amountOut: string };
    // 30 USDT in the 0.01% pool: its fee and a sliver of slippage.
    expect(BigInt(amountOut)).toBeGreaterThan(29_990_000n);
    expect(BigInt(amountOut)).toBeLessThan(30_000_000n);
    expect(await usdtBalance()).toBe(0n);
    expect(await f.collectorBalance()).toBe(usdcBefore + BigInt(amountOut));
    expect(await findSwap(f.db.sql, swapId)).toMatchObject({ stage: 'swapped', amountIn: 30_000_000n, minOut: BigInt(amountOut) });
    const entries = await f.db.sql<{ account: string; asset: string; amount: string }[]>`
      select account, asset, amount::text from ledger_entries where group_id = ${`${swapId}:swapped`} order by account, asset`;
    expect(entries).toEqual(
      expect.arrayContaining([
        { account: 'collector:ethereum', asset: 'usdt:ethereum', amount: '-30000000' },
        { account: 'collector:ethereum', asset: 'usdc:ethereum', amount: amountOut },
        { account: 'swap_costs:ethereum', asset: 'usdc:solana', amount: String(30_000_000n - BigInt(amountOut)) },
      ]),
    );

    const treasuryBefore = await f.treasuryUsdcBalance();
    const started = await triggerRun();
    expect(started).toMatchObject({ kind: 'started' });
    const { transferId } = started as { transferId: string };
    const result = await client.workflow.getHandle<() => Promise<CctpTransferResult>>(transferWorkflowId(transferId)).result();
    expect(result).toMatchObject({ kind: 'received' });
    expect(await f.treasuryUsdcBalance()).toBeGreaterThan(treasuryBefore + BigInt(amountOut) - 10_000n);
    expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  }, 120_000);

  it('a quote beyond SWAP_MAX_DEVIATION_BPS writes nothing and waits; a row edited to sell cheap is not signed', async () => {
    const usdt = f.swaps!.usdt;
    await f.evm.mint(usdt, f.collector, 5_000_000n);
    const strict = createUsdtSwapRoute(f.swapRouteDeps({ maxDeviationBps: 0 }));
    // At 0 bps even the pool's 0.01% fee is too much.
    expect(await strict.start('strict-run')).toMatchObject({ status: 'waiting_price', deviationBps: expect.any(Number) });
    expect(await f.db.sql`select 1 from swaps where mode = 'test' and chain = 'ethereum' and stage = 'swapping'`).toHaveLength(0);

    const route = createUsdtSwapRoute(f.swapRouteDeps());
    const started = await route.start('edited-run');
    expect(started).toMatchObject({ status: 'started' });
    const { swapId } = started as { swapId: string };
    await f.db.sql`update swaps set min_out = 1 where id = ${swapId}`;
    await expect(new MockActivityEnvironment().run(() => route.advance(swapId))).rejects.toMatchObject({
      type: WorkflowFailure.ChainIntentRefused,
    });
    expect(await f.evm.tokenBalance(usdt, f.collector)).toBe(5_000_000n);
    await f.db.sql`update swaps set stage = 'failed', failure = 'edited by the test' where id = ${swapId}`;
  }, 60_000);
});
