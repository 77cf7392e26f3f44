// Records the histories a release must keep replaying (docs/operations.md#releasing-workflow-changes) from the
// workflow harness: a session paid across two choices and settled, one cancelled, one simulated, their
// settlements and a webhook delivery. A cancelled or simulated session's workflow stays open until its expiry, so
// theirs are recorded once their webhook is delivered. It replaces test/workflows/histories/<RECORD_VERSION>/, so run it only for a
// version not yet released:
//   RECORD_VERSION=<version> npx vitest run -c test/workflows/recordHistories.config.ts
// (test/workflows/recordHistory.ts fetches histories from a running server instead.)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paymentIdForSession } from '../../domain/wire/ids';
import type { checkoutSession } from '../../workflows/checkoutSession';
import { cancelUpdate, depositConfirmedSignal, depositDetectedSignal, selectPaymentUpdate, simulateUpdate } from '../../workflows/messages';
import {
  createWorkflowHarness,
  deposit,
  finishedDeliveries,
  indexerRecords,
  waitForState,
  type WorkflowHarness,
} from '../support/workflowHarness';

const version = process.env.RECORD_VERSION;
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error('set RECORD_VERSION to the release being recorded, e.g. 0.1.0');

let h: WorkflowHarness;
beforeAll(async () => {
  h = await createWorkflowHarness();
  await h.freshEnvironment();
});
afterAll(() => h?.teardown());

async function closed(handle: WorkflowHandle): Promise<void> {
  await handle.result();
}

it(`records the ${version} histories`, async () => {
  const paid = await h.record({ supportedTokens: { USDC: ['ethereum', 'base'] } });
  const cancelled = await h.record();
  const simulated = await h.record();
  const ids: string[] = [];
  await h.withWorker(async () => {
    const handle: WorkflowHandle<typeof checkoutSession> = await h.start(paid);
    await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'ethereum' }] });
    const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
    const money = deposit({ amount: instructions.amount_base_units, toAddress: instructions.deposit_address });
    await indexerRecords(h.db.sql, paid.sessionId, money);
    await handle.signal(depositDetectedSignal, money);
    await waitForState(handle, (s) => s.status === 'confirming');
    await indexerRecords(h.db.sql, paid.sessionId, money, { confirmations: 64 });
    await handle.signal(depositConfirmedSignal, { ...money, confirmations: 64 });
    expect((await waitForState(handle, (s) => s.settlement !== undefined)).status).toBe('completed');
    const deliveries = await finishedDeliveries(h, paid.sessionId, 2);
    const settlement = `settle_${paymentIdForSession(paid.sessionId)}`;
    await closed(h.env.client.workflow.getHandle(settlement));
    await closed(handle);
    ids.push(paid.sessionId, settlement, deliveries.at(-1)!.id);

    const cancelling = await h.start(cancelled);
    await cancelling.executeUpdate(cancelUpdate, { args: [{ reason: 'customer left', by: 'merchant' }] });
    await finishedDeliveries(h, cancelled.sessionId, 1);
    ids.push(cancelled.sessionId);

    const simulating = await h.start(simulated);
    await simulating.executeUpdate(simulateUpdate, { args: [{ status: 'completed' }] });
    const simulatedSettlement = `settle_${paymentIdForSession(simulated.sessionId)}`;
    await closed(h.env.client.workflow.getHandle(simulatedSettlement));
    await finishedDeliveries(h, simulated.sessionId, 1);
    ids.push(simulated.sessionId, simulatedSettlement);

    const folder = new URL(`./histories/${version}/`, import.meta.url);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    for (const id of ids) {
      const history = await h.env.client.workflow.getHandle(id).fetchHistory();
      writeFileSync(new URL(`${id}.bin`, folder), proto.temporal.api.history.v1.History.encode(history).finish());
      console.log(`${id}: ${history.events?.length ?? 0} events`);
    }
  });
});
