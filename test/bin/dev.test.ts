// `npm start` (bin/dev.ts) as a developer meets it: a real child process on its embedded Postgres and local chains,
// in a process group of its own as toolchain/bootstrap.mjs runs it, with the inventory schedules every 10 s. Past
// their first runs its output holds no warning, error or stack; the admin CLI, run with no DATABASE_URL, reaches
// its database through the state file; SIGINT (the bootstrap's forwarded Ctrl-C) stops it with exit code 0, during
// start-up too, leaving none of its processes behind.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devStatePath } from '../../bin/devState';
import { freePort } from '../../toolchain/ports';
import { startTemporalDevServer, type RunningTemporal } from '../../toolchain/temporalDevServer';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BANNER = 'Stablecoin checkout is running (Ctrl-C stops everything)';
const SCHEDULES = ['sweep_evm_base_usdc_test', 'transfer_usdc_base_test'];

let temporal: RunningTemporal;
let connection: Connection;
let dataDir: string;
let child: ChildProcess;
let output = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

function waitForOutput(text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" in ${timeoutMs} ms; output so far:\n${output}`)), timeoutMs);
    const check = () => {
      if (!output.includes(text)) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve();
    };
    child.stdout?.on('data', check);
    check();
  });
}

beforeAll(async () => {
  temporal = await startTemporalDevServer();
  connection = await Connection.connect({ address: temporal.address });
  dataDir = mkdtempSync(join(tmpdir(), 'checkout-dev-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'bin/dev.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      TEMPORAL_ADDRESS: temporal.address,
      PORT: '0',
      LOCAL_CHAIN_PORT: '0',
      LOCAL_SOLANA_PORT: '0',
      SWEEP_INTERVAL_SECONDS: '10',
      TRANSFER_INTERVAL_SECONDS: '10',
    },
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await waitForOutput(BANNER, 170_000);
}, 180_000);

afterAll(async () => {
  // Whatever a failed test left running: the stack's whole process group (Postgres, Hardhat with it).
  if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  await connection?.close();
  await temporal?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('npm start', () => {
  it('runs the first sweep and transfer of its schedules to completion', { timeout: 90_000 }, async () => {
    const client = new Client({ connection });
    for (const scheduleId of SCHEDULES) {
      const handle = client.schedule.getHandle(scheduleId);
      let workflowId: string | undefined;
      while (!workflowId) {
        const [first] = (await handle.describe()).info.recentActions;
        workflowId = first?.action.workflow.workflowId;
        if (!workflowId) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      // A failing activity retries without end: the result would never come.
      await client.workflow.getHandle(workflowId).result();
    }
  });

  it('lets the admin CLI reach its database with no DATABASE_URL, saying where it found it', { timeout: 60_000 }, async () => {
    const merchant = /Demo merchant +(mer_\w+)/.exec(output)?.[1];
    expect(merchant, output).toBeDefined();
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          'bin/admin.ts',
          'key',
          'create',
          '--merchant',
          merchant!,
          '--mode',
          'test',
          '--label',
          'beside npm start',
          '--json',
        ],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `note: DATABASE_URL is unset: using the running npm start's database and Temporal (process ${child.pid}, ${devStatePath(dataDir)})`,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ merchant_id: merchant, mode: 'test' });
  });

  it('prints the line that points other tools at its database and Temporal', () => {
    expect(output).toMatch(
      new RegExp(`export DATABASE_URL=postgres://\\S+ TEMPORAL_ADDRESS=${temporal.address.replaceAll('.', '\\.')}\\n`),
    );
  });

  it('stops on SIGINT with exit code 0, leaving no state file, and logged no warning, error or stack', { timeout: 90_000 }, async () => {
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(existsSync(devStatePath(dataDir))).toBe(false);
    expect(output).toContain('shutting down');
    const problems = output.split('\n').filter((line) => /\b(WARN|ERROR|FATAL)\b|Error:|^\s+at /.test(line));
    expect(problems, output).toEqual([]);
  });
});

describe('npm start interrupted while starting', () => {
  it('exits 0 at once and leaves no process of its group behind', { timeout: 120_000 }, async () => {
    const interruptedDir = mkdtempSync(join(tmpdir(), 'checkout-dev-interrupted-'));
    const starting = spawn(process.execPath, ['--import', 'tsx', 'bin/dev.ts'], {
      cwd: ROOT,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: interruptedDir,
        EMBEDDED_POSTGRES_PORT: String(await freePort()),
        TEMPORAL_ADDRESS: temporal.address,
        PORT: '0',
        LOCAL_CHAIN_PORT: '0',
        LOCAL_SOLANA_PORT: '0',
      },
    });
    let log = '';
    const stopped = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      starting.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const groupGone = async () => {
      for (;;) {
        try {
          process.kill(-starting.pid!, 0);
        } catch {
          return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    try {
      await new Promise<void>((resolve) =>
        starting.stdout.on('data', (chunk: Buffer) => {
          log += chunk.toString('utf8');
          if (log.includes('starting a local Solana chain')) resolve();
        }),
      );
      starting.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
      starting.kill('SIGINT');
      expect(await stopped, log).toEqual({ code: 0, signal: null });
      expect(await groupGone()).toBe(true);
      expect(log).not.toMatch(/\b(ERROR|FATAL)\b|^\s+at /m);
    } finally {
      if (starting.exitCode === null && starting.signalCode === null) process.kill(-starting.pid!, 'SIGKILL');
      rmSync(interruptedDir, { recursive: true, force: true });
    }
  });
});
