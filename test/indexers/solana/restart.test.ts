// The indexer process itself (bin/indexer.ts, real Temporal sender) against the local Solana chain over HTTP,
// killed with SIGKILL part-way through a catch-up and started again: every deposit is stored once and every
// signal step reaches its workflow once.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { Address } from '@solana/kit';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { projectRoot } from '../../../toolchain/paths';
import type { DepositConfirmations, DepositObservation } from '../../../domain/session/deposit';
import { transfer, type SentTransaction } from '../../../toolchain/localSolana/splToken';
import { createSolanaFixture, solanaDeposits, type SolanaFixture } from './solanaFixture';

const DEPOSITS = 24;

describe('Solana indexer process: killed mid-range and restarted', () => {
  let fx: SolanaFixture;
  let connection: Connection;
  let temporal: Client;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fx = await createSolanaFixture();
    // Slow enough that the catch-up takes seconds, so the kill lands in the middle of it.
    fx.rpc.setPolicy(() => ({ delayMs: 10 }));
    connection = await Connection.connect({ address: inject('temporalAddress') });
    temporal = new Client({ connection });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await connection?.close();
    await fx?.stop();
  });

  function startIndexer(env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/indexer.ts'], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  }

  async function cursor(): Promise<bigint | undefined> {
    const [row] = await fx.db.sql<
      { block_number: bigint }[]
    >`select block_number from indexer_cursors where chain = 'solana' and network = 'testnet'`;
    return row?.block_number;
  }

  test('every deposit is stored once and every signal step is delivered once', async () => {
    const sessions: { sessionId: string; address: Address }[] = [];
    const taskQueue = `no-worker-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 4; i++) {
      const session = await fx.watchedSession();
      // Real session workflows; no worker polls their queue, so their histories record every signal as accepted.
      await temporal.workflow.start('checkoutSession', { taskQueue, workflowId: session.sessionId, args: [] });
      sessions.push(session);
    }
    const startSlot = fx.chain.currentSlot;
    const sent: SentTransaction[] = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const session = sessions[i % sessions.length];
      if (!session) throw new Error('unreachable');
      const mint = i % 3 ? fx.mints.usdc : fx.mints.usdt;
      sent.push(await transfer(fx.chain, mint, fx.payer, [{ to: session.address, amount: 1_000_000n + BigInt(i) }]));
      fx.chain.produce(2);
      if (i % 5 === 4) fx.chain.skip(1);
    }
    fx.chain.produce(CHAIN_FACTS.solana.confirmations);
    const tip = fx.chain.tip();

    const env = {
      DATABASE_URL: fx.db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      LOG_LEVEL: 'error',
      INDEXER_MAX_LOG_RANGE: '2',
      INDEXER_POLL_INTERVAL_MS: '100',
      ...fx.chainEnv({ startSlot }),
    };
    const first = startIndexer(env);
    await vi.waitFor(async () => expect(await cursor()).toBeGreaterThanOrEqual(startSlot + 20n), { timeout: 30_000, interval: 25 });
    first.kill('SIGKILL');
    await once(first, 'exit');
    const killedAt = await cursor();
    expect(killedAt).toBeLessThan(startSlot + BigInt(2 * DEPOSITS));
    const beforeRestart = await solanaDeposits(fx.db);
    expect(beforeRestart.length).toBeGreaterThan(0);
    expect(beforeRestart.length).toBeLessThan(DEPOSITS);

    const second = startIndexer(env);
    await vi.waitFor(
      async () => {
        expect((await solanaDeposits(fx.db)).filter((r) => r.signalled_stage === 'confirmed')).toHaveLength(DEPOSITS);
        expect(await cursor()).toBe(tip);
      },
      { timeout: 60_000, interval: 100 },
    );
    second.kill('SIGTERM');
    const [code] = (await once(second, 'exit')) as [number | null];
    expect(code).toBe(0);

    const rows = await solanaDeposits(fx.db);
    const bySignature = new Map(rows.map((r) => [r.tx_hash, r]));
    expect(rows).toHaveLength(DEPOSITS);
    for (const [i, s] of sent.entries()) {
      expect(bySignature.get(s.signature)).toMatchObject({
        block_number: s.slot,
        amount_base_units: (1_000_000n + BigInt(i)).toString(),
        stage: 'confirmed',
      });
    }

    for (const [index, session] of sessions.entries()) {
      const history = await temporal.workflow.getHandle(session.sessionId).fetchHistory();
      const signals = (history.events ?? []).flatMap((event) => {
        const attributes = event.workflowExecutionSignaledEventAttributes;
        if (!attributes) return [];
        const payload = defaultPayloadConverter.fromPayload<DepositObservation | DepositConfirmations>(
          attributes.input?.payloads?.[0] ?? {},
        );
        return [{ name: attributes.signalName, payload }];
      });
      const mine = sent.filter((_s, i) => i % sessions.length === index).map((s) => s.signature);
      const ofKind = (name: string) => signals.filter((s) => s.name === name).map((s) => s.payload.txHash);
      expect(ofKind('depositDetected').sort()).toEqual([...mine].sort());
      expect(ofKind('depositConfirmed').sort()).toEqual([...mine].sort());
      expect(ofKind('depositReorged')).toEqual([]);
      for (const signature of mine) {
        const depths = signals
          .filter((s) => s.name === 'confirmations' && s.payload.txHash === signature)
          .map((s) => (s.payload as DepositConfirmations).confirmations);
        expect(depths, 'progress depths strictly increase, none repeated').toEqual([...new Set(depths)].sort((a, b) => a - b));
      }
      await temporal.workflow.getHandle(session.sessionId).terminate('test finished');
    }
  }, 120_000);
});
