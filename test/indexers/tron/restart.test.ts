// Restarts resume from the cursor. In process: a second indexer over the same database picks up where the first
// stopped. As a process: bin/indexer.ts (real Temporal sender), configured for Tron only, killed with SIGKILL
// part-way through a catch-up and started again: every deposit is stored once and every signal step reaches
// its workflow once.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { projectRoot } from '../../../toolchain/paths';
import type { DepositConfirmations, DepositObservation } from '../../../domain/session/deposit';
import { createTronFixture, randomTronAddress, RecordingSignalSender, tronDeposits, USDC, USDT, type TronFixture } from './tronFixture';

const PAYER = randomTronAddress();
const DEPOSITS = 24;

describe('Tron indexer: restart resumes from the cursor', () => {
  let fx: TronFixture;
  let connection: Connection;
  let temporal: Client;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fx = await createTronFixture();
    connection = await Connection.connect({ address: inject('temporalAddress') });
    temporal = new Client({ connection });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await connection?.close();
    await fx?.stop();
  });

  async function cursor(): Promise<bigint | undefined> {
    const [row] = await fx.db.sql<
      { block_number: bigint }[]
    >`select block_number from indexer_cursors where chain = 'tron' and network = 'testnet'`;
    return row?.block_number;
  }

  test('a new indexer continues from the stored cursor: nothing rescanned from the start, nothing missed', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const sender = new RecordingSignalSender();
    const first = fx.createIndexer({ sender, env: { INDEXER_MAX_LOG_RANGE: '2' } });
    const [a] = fx.node.transfer({ contract: USDT, from: PAYER, to: address, amount: 1_000_001n });
    fx.node.mine(5);
    const [b] = fx.node.transfer({ contract: USDC, from: PAYER, to: address, amount: 2_000_002n });
    fx.node.mine(5);
    // Two ranges of two blocks, then the process "stops".
    await first.indexer.tick();
    await first.indexer.tick();
    const stoppedAt = await cursor();
    expect(stoppedAt).toBe((a?.blockNumber ?? 0n) + 3n);

    fx.node.resetCalls();
    // A configured start block is only for the first start; the stored cursor wins.
    const second = fx.createIndexer({ sender, startBlock: 1n, env: { INDEXER_MAX_LOG_RANGE: '2' } });
    fx.node.mine(CHAIN_FACTS.tron.confirmations);
    await second.drain();
    const logRanges = fx.node.calls.get('eth_getLogs') ?? 0;
    expect(logRanges).toBe(Math.ceil(Number(fx.node.head() - (stoppedAt ?? 0n)) / 2));
    expect((await tronDeposits(fx.db)).map((r) => [r.tx_hash, r.stage])).toEqual([
      [a?.txId, 'confirmed'],
      [b?.txId, 'confirmed'],
    ]);
    expect(sender.kinds(sessionId).filter((k) => k !== 'confirmations')).toEqual([
      'depositDetected',
      'depositDetected',
      'depositConfirmed',
      'depositConfirmed',
    ]);
  });

  test('bin/indexer.ts killed mid catch-up: every deposit stored once, every signal step delivered once', async () => {
    const sessions: { sessionId: string; address: string }[] = [];
    const taskQueue = `no-worker-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 4; i++) {
      const session = await fx.watchedSession();
      // Real session workflows on the real Temporal server. No worker polls their queue, so they stay running
      // and their history records every signal exactly as the server accepted it.
      await temporal.workflow.start('checkoutSession', { taskQueue, workflowId: session.sessionId, args: [] });
      sessions.push(session);
    }
    const sent = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const session = sessions[i % sessions.length];
      if (!session) throw new Error('unreachable');
      const [transfer] = fx.node.transfer({
        contract: i % 3 ? USDT : USDC,
        from: PAYER,
        to: session.address,
        amount: 1_000_000n + BigInt(i),
      });
      sent.push(transfer);
    }
    fx.node.mine(CHAIN_FACTS.tron.confirmations);
    const head = fx.node.head();
    const resumeFrom = (await cursor()) ?? 0n;
    // Slow enough that the catch-up takes a few seconds, so the kill lands in the middle of it.
    fx.node.setPolicy(() => ({ delayMs: 15 }));

    const env = {
      ...process.env,
      DATABASE_URL: fx.db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      LOG_LEVEL: 'error',
      INDEXER_MAX_LOG_RANGE: '2',
      INDEXER_POLL_INTERVAL_MS: '100',
      ...fx.tronEnv(),
    };
    const start = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bin/indexer.ts'], {
        cwd: projectRoot,
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    };
    const first = start();
    await vi.waitFor(async () => expect(await cursor()).toBeGreaterThanOrEqual(resumeFrom + 14n), { timeout: 30_000, interval: 25 });
    first.kill('SIGKILL');
    await once(first, 'exit');
    expect(await cursor()).toBeLessThan(resumeFrom + BigInt(DEPOSITS));

    const second = start();
    const mine = new Set(sent.map((s) => s?.txId));
    await vi.waitFor(
      async () => {
        const rows = (await tronDeposits(fx.db)).filter((r) => mine.has(r.tx_hash));
        expect(rows.filter((r) => r.signalled_stage === 'confirmed')).toHaveLength(DEPOSITS);
      },
      { timeout: 60_000, interval: 100 },
    );
    second.kill('SIGTERM');
    const [code] = (await once(second, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(await cursor()).toBeGreaterThanOrEqual(head);

    const rows = (await tronDeposits(fx.db)).filter((r) => mine.has(r.tx_hash));
    expect(rows.map((r) => [r.tx_hash, r.log_index, r.amount_base_units, r.stage])).toEqual(
      sent.map((s, i) => [s?.txId, s?.logIndex, (1_000_000n + BigInt(i)).toString(), 'confirmed']),
    );
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
      const own = sent.filter((_s, i) => i % sessions.length === index).map((s) => s?.txId);
      const ofKind = (name: string) => signals.filter((s) => s.name === name).map((s) => s.payload.txHash);
      expect(ofKind('depositDetected').sort()).toEqual([...own].sort());
      expect(ofKind('depositConfirmed').sort()).toEqual([...own].sort());
      expect(ofKind('depositReorged')).toEqual([]);
      const detected = signals.find((s) => s.name === 'depositDetected')?.payload as DepositObservation | undefined;
      expect(detected).toMatchObject({ chain: 'tron', toAddress: session.address, fromAddress: PAYER });
      await temporal.workflow.getHandle(session.sessionId).terminate('test finished');
    }
  }, 180_000);
});
