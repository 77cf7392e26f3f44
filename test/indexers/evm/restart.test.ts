// The indexer process itself (bin/indexer.ts, real Temporal sender), killed with SIGKILL part-way through a
// catch-up and started again: every deposit is stored once and every signal step reaches its workflow once.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { CHAIN_FACTS } from '../../../domain/chains/chains';
import { projectRoot } from '../../../toolchain/paths';
import type { DepositConfirmations, DepositObservation } from '../../../domain/session/deposit';
import { startRpcProxy, type RpcProxy } from '../../support/evm/rpcProxy';
import { createIndexerFixture, deployTokens, depositsOf, type IndexerFixture, type Tokens } from './indexerFixture';

const PAYER = 1;
const DEPOSITS = 24;

describe('indexer process: killed mid-range and restarted', () => {
  let fx: IndexerFixture;
  let tokens: Tokens;
  let proxy: RpcProxy;
  let connection: Connection;
  let temporal: Client;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fx = await createIndexerFixture();
    tokens = await deployTokens(fx.chain, 6);
    await fx.chain.mint(tokens.usdc, fx.chain.account(PAYER).address, 10n ** 15n);
    await fx.chain.mint(tokens.usdt, fx.chain.account(PAYER).address, 10n ** 15n);
    proxy = await startRpcProxy(fx.chain.rpcUrl);
    // Slow enough that a catch-up takes several seconds, so the kill lands in the middle of it.
    proxy.setPolicy(() => ({ delayMs: 15 }));
    connection = await Connection.connect({ address: inject('temporalAddress') });
    temporal = new Client({ connection });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await connection?.close();
    await proxy?.close();
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
    >`select block_number from indexer_cursors where chain = 'base' and network = 'testnet'`;
    return row?.block_number;
  }

  test('every deposit is stored once and every signal step is delivered once', async () => {
    const sessions: { sessionId: string; address: `0x${string}` }[] = [];
    const taskQueue = `no-worker-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 4; i++) {
      const session = await fx.watchedSession('base');
      // Real session workflows on the real Temporal server. No worker polls their queue, so they stay running
      // and their history records every signal exactly as the server accepted it.
      await temporal.workflow.start('checkoutSession', { taskQueue, workflowId: session.sessionId, args: [] });
      sessions.push(session);
    }
    const startBlock = (await fx.chain.blockNumber()) + 1n;
    const sent = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const session = sessions[i % sessions.length];
      if (!session) throw new Error('unreachable');
      sent.push(await fx.chain.transfer(i % 3 ? tokens.usdc : tokens.usdt, PAYER, session.address, 1_000_000n + BigInt(i)));
    }
    await fx.chain.mine(CHAIN_FACTS.base.confirmations);
    const head = await fx.chain.blockNumber();

    const env = {
      DATABASE_URL: fx.db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      LOG_LEVEL: 'error',
      INDEXER_MAX_LOG_RANGE: '2',
      INDEXER_POLL_INTERVAL_MS: '100',
      ...fx.chainEnv('base', tokens, { rpcUrl: proxy.url, startBlock }),
    };
    const first = startIndexer(env);
    await vi.waitFor(async () => expect(await cursor()).toBeGreaterThanOrEqual(startBlock + 14n), { timeout: 30_000, interval: 25 });
    first.kill('SIGKILL');
    await once(first, 'exit');
    const killedAt = await cursor();
    expect(killedAt).toBeLessThan(startBlock + BigInt(DEPOSITS));

    const second = startIndexer(env);
    await vi.waitFor(
      async () => {
        const rows = await depositsOf(fx.db, 'base');
        expect(rows.filter((r) => r.signalled_stage === 'confirmed')).toHaveLength(DEPOSITS);
      },
      { timeout: 60_000, interval: 100 },
    );
    second.kill('SIGTERM');
    const [code] = (await once(second, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(await cursor()).toBeGreaterThanOrEqual(head);

    const rows = await depositsOf(fx.db, 'base');
    expect(rows.map((r) => [r.tx_hash, r.log_index, r.amount_base_units, r.stage])).toEqual(
      sent.map((s, i) => [s.hash, s.logIndex, (1_000_000n + BigInt(i)).toString(), 'confirmed']),
    );

    for (const session of sessions) {
      const history = await temporal.workflow.getHandle(session.sessionId).fetchHistory();
      const signals = (history.events ?? []).flatMap((event) => {
        const attributes = event.workflowExecutionSignaledEventAttributes;
        if (!attributes) return [];
        const payload = defaultPayloadConverter.fromPayload<DepositObservation | DepositConfirmations>(
          attributes.input?.payloads?.[0] ?? {},
        );
        return [{ name: attributes.signalName, payload }];
      });
      const mine = sent.filter((_s, i) => i % sessions.length === sessions.indexOf(session)).map((s) => s.hash);
      const ofKind = (name: string) => signals.filter((s) => s.name === name).map((s) => s.payload.txHash);
      expect(ofKind('depositDetected').sort()).toEqual([...mine].sort());
      expect(ofKind('depositConfirmed').sort()).toEqual([...mine].sort());
      expect(ofKind('depositReorged')).toEqual([]);
      for (const txHash of mine) {
        const depths = signals
          .filter((s) => s.name === 'confirmations' && s.payload.txHash === txHash)
          .map((s) => (s.payload as DepositConfirmations).confirmations);
        expect(depths, 'progress depths strictly increase, none repeated').toEqual([...new Set(depths)].sort((a, b) => a - b));
      }
      await temporal.workflow.getHandle(session.sessionId).terminate('test finished');
    }
  }, 180_000);
});
