// The CCTP route as the service runs it, on a real Temporal dev server: the schedule transfer_usdc_ethereum_test
// triggers transferUsdc, which has the signer start a transfer of the collector's USDC and starts its workflow
// transfer_<id>; that workflow carries it through burned → attested → received on the stand-ins (Hardhat with the
// TokenMessengerV2 stand-in and the DepositCollector, the loopback attestation server, the local Solana chain).
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { depositSeeds } from '../../domain/addresses/depositSeed';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import { loadChainsConfig } from '../../config/chains';
import { unbalancedLedgerGroups } from '../../db/repositories/ledger';
import { findTransfer } from '../../db/repositories/transfers';
import { transferScheduleId, transferWorkflowId } from '../../domain/cctp/transferWorkflowIds';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { createSignerWorkers } from '../../signer/worker';
import { createWorker } from '../../worker/createWorker';
import { ensureTransferSchedules } from '../../worker/transferSchedules';
import type { CctpTransferResult, TransferUsdcResult } from '../../workflows/cctpTransfer';
import { startCctpRoute, type CctpRouteFixture } from '../signer/transfers/cctpRouteFixture';

let f: CctpRouteFixture;
let connection: Connection;
let client: Client;
let nativeConnection: NativeConnection;
let workers: Worker[];
let running: Promise<unknown>;
const taskQueue = `transfers-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  f = await startCctpRoute();
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
      signer: { depositSeeds: seeds, cctpRoutes: { test: { ethereum: f.routeDeps() } } },
    })),
  ];
  running = Promise.all(workers.map((w) => w.run()));
}, 120_000);

afterAll(async () => {
  for (const mode of ['test', 'live'] as const) {
    for (const chain of ['ethereum', 'optimism', 'arbitrum', 'base', 'polygon'] as const)
      await client?.schedule
        .getHandle(transferScheduleId(chain, mode))
        .delete()
        .catch(() => undefined);
  }
  for (const w of workers ?? []) w.shutdown();
  await running;
  await nativeConnection?.close();
  await connection?.close();
  await f?.stop();
});

async function triggerRun(): Promise<TransferUsdcResult> {
  const schedule = client.schedule.getHandle(transferScheduleId('ethereum', 'test'));
  const before = (await schedule.describe()).info.recentActions.length;
  await schedule.trigger();
  for (;;) {
    const actions = (await schedule.describe()).info.recentActions;
    const action = actions.length > before ? actions.at(-1) : undefined;
    if (action)
      return client.workflow
        .getHandle<() => Promise<TransferUsdcResult>>(action.action.workflow.workflowId, action.action.workflow.firstExecutionRunId)
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
});
