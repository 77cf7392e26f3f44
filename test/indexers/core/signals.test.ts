import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { upsertDeposits, type DepositRow } from '../../../indexers/core/depositStore';
import { IndexerMetrics } from '../../../indexers/core/metrics';
import { flushSignals, nextSignal } from '../../../indexers/core/signalOutbox';
import { createTemporalSignalSender, type SignalSender } from '../../../indexers/core/signalSender';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { silentLogger } from '../evm/indexerFixture';

const row = (overrides: Partial<DepositRow>): DepositRow => ({
  chain: 'base',
  network: 'testnet',
  sessionId: 'cs_x',
  token: 'USDC',
  txHash: '0xabc',
  logIndex: 3,
  amount: '1000000',
  fromAddress: '0xfrom',
  toAddress: '0xto',
  blockNumber: 100n,
  blockHash: '0xb1',
  stage: 'detected',
  confirmations: 1,
  signalledStage: null,
  signalledBlockHash: null,
  signalledConfirmations: 0,
  signalSeq: 0,
  ...overrides,
});

describe('signal steps (nextSignal)', () => {
  test('a new deposit is detected first, with its block', () => {
    expect(nextSignal(row({}))).toEqual({
      signal: {
        kind: 'depositDetected',
        payload: {
          chain: 'base',
          txHash: '0xabc',
          logIndex: 3,
          token: 'USDC',
          amount: '1000000',
          toAddress: '0xto',
          fromAddress: '0xfrom',
          blockNumber: '100',
          blockHash: '0xb1',
        },
      },
      after: { stage: 'detected', blockHash: '0xb1', confirmations: 1 },
    });
  });

  test('progress only for a deeper depth, then confirmed once', () => {
    const told = { signalledStage: 'detected' as const, signalledBlockHash: '0xb1', signalledConfirmations: 5 };
    expect(nextSignal(row({ ...told, confirmations: 5 }))).toBeUndefined();
    expect(nextSignal(row({ ...told, confirmations: 6 }))?.signal).toEqual({
      kind: 'confirmations',
      payload: { chain: 'base', txHash: '0xabc', logIndex: 3, confirmations: 6 },
    });
    expect(nextSignal(row({ ...told, stage: 'confirmed', confirmations: 12 }))?.signal?.kind).toBe('depositConfirmed');
    expect(nextSignal(row({ ...told, stage: 'confirmed', signalledStage: 'confirmed', confirmations: 12 }))).toBeUndefined();
  });

  test('a told deposit that moved block or was reorged is withdrawn; one never told needs no signal', () => {
    const told = { signalledStage: 'detected' as const, signalledBlockHash: '0xb1', signalledConfirmations: 1 };
    expect(nextSignal(row({ ...told, stage: 'reorged' }))).toEqual({
      signal: { kind: 'depositReorged', payload: { chain: 'base', txHash: '0xabc', logIndex: 3 } },
      after: { stage: 'reorged', blockHash: '0xb1', confirmations: 0 },
    });
    expect(nextSignal(row({ ...told, blockHash: '0xb2' }))?.signal?.kind).toBe('depositReorged');
    expect(nextSignal(row({ stage: 'reorged' }))).toEqual({
      signal: undefined,
      after: { stage: 'reorged', blockHash: null, confirmations: 0 },
    });
    expect(nextSignal(row({ stage: 'reorged', signalledStage: 'reorged', signalledBlockHash: '0xb1' }))).toBeUndefined();
    // Seen again after the withdrawal: detected anew.
    expect(nextSignal(row({ signalledStage: 'reorged', signalledBlockHash: '0xb1', blockHash: '0xb2' }))?.signal?.kind).toBe(
      'depositDetected',
    );
  });
});

describe('Temporal signal sender', () => {
  let db: TestDatabase;
  let connection: Connection;
  let client: Client;
  const taskQueue = `no-worker-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await Connection.connect({ address: inject('temporalAddress') });
    client = new Client({ connection });
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  test('a step resent after a crash between sending and recording reaches the workflow once', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(db.sql, record, 'awaiting_payment');
    // A real session workflow; no worker runs it, so its history shows exactly what the server accepted.
    const handle = await client.workflow.start('checkoutSession', { taskQueue, workflowId: record.sessionId, args: [] });
    const key = { chain: 'base' as const, network: 'testnet' as const };
    await upsertDeposits(db.sql, key, [
      {
        sessionId: record.sessionId,
        token: 'USDC',
        txHash: '0xfeed',
        logIndex: 0,
        amount: 5n,
        fromAddress: '0x1',
        toAddress: '0x2',
        blockNumber: 7n,
        blockHash: '0xb7',
      },
    ]);
    const temporal = createTemporalSignalSender(client, { namespace: 'default' });
    let crash = true;
    // Temporal accepts the signal, then the process "dies" before the row records it.
    const crashing: SignalSender = {
      async send(sessionId, signal, requestId) {
        const outcome = await temporal.send(sessionId, signal, requestId);
        if (crash) throw new Error('killed after sending');
        return outcome;
      },
    };
    const metrics = new IndexerMetrics().forChain('base', 'testnet');
    expect(await flushSignals({ sql: db.sql, key, sender: crashing, metrics, logger: silentLogger })).toBe(false);
    crash = false;
    expect(await flushSignals({ sql: db.sql, key, sender: crashing, metrics, logger: silentLogger })).toBe(true);

    const history = await handle.fetchHistory();
    const signalled = (history.events ?? [])
      .filter((e) => e.workflowExecutionSignaledEventAttributes)
      .map((e) => e.workflowExecutionSignaledEventAttributes?.signalName);
    expect(signalled).toEqual(['depositDetected']);
    await handle.terminate('test finished');
  });

  test('a deposit for a closed session, whose workflow has ended, is recorded as late for a refund', async () => {
    const { merchant } = await createTestMerchant(db.sql);
    const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(db.sql, record, 'expired');
    const key = { chain: 'base' as const, network: 'testnet' as const };
    await upsertDeposits(db.sql, key, [
      {
        sessionId: record.sessionId,
        token: 'USDC',
        txHash: '0xlate',
        logIndex: 1,
        amount: 5n,
        fromAddress: '0x1',
        toAddress: '0x2',
        blockNumber: 8n,
        blockHash: '0xb8',
      },
    ]);
    const metrics = new IndexerMetrics().forChain('base', 'testnet');
    const sender = createTemporalSignalSender(client, { namespace: 'default' });
    expect(await flushSignals({ sql: db.sql, key, sender, metrics, logger: silentLogger })).toBe(true);
    const [row] = await db.sql`select late, credited, signalled_stage from deposits where tx_hash = '0xlate'`;
    expect(row).toEqual({ late: true, credited: false, signalled_stage: 'detected' });
    expect(metrics.signalsUndeliverable).toBe(1);
  });

  test('a session without a running workflow is reported, not retried forever', async () => {
    const temporal = createTemporalSignalSender(client, { namespace: 'default' });
    const outcome = await temporal.send(
      'cs_does_not_exist',
      { kind: 'depositReorged', payload: { chain: 'bsc', txHash: '0x1', logIndex: 0 } },
      randomBytes(16).toString('hex'),
    );
    expect(outcome).toBe('not-found');
  });
});
