// Starts a real Temporal server for development and tests: the provisioned CLI's `server start-dev`,
// or, where no CLI could be built, the Temporal SDK's own download of it.
import { type ChildProcess, spawn } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../workflows/searchAttributes';
import { findTemporalCli } from './paths';
import { freePort, waitForPort } from './ports';

export interface RunningTemporal {
  address: string;
  namespace: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  port?: number;
  /** Omit for a headless server (tests). */
  uiPort?: number;
  /** SQLite file for a server whose history survives restarts; in-memory when omitted. */
  dbFile?: string;
  log?: (line: string) => void;
}

const KEYWORD = 'Keyword';

async function waitUntilServing(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`Temporal at ${address} did not become ready: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startTemporalDevServer(options: DevServerOptions = {}): Promise<RunningTemporal> {
  const port = options.port ?? (await freePort());
  const address = `127.0.0.1:${port}`;
  const namespace = 'default';
  const cli = findTemporalCli();
  if (!cli) return startFromSdkDownload(port, options);

  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--namespace', namespace, '--log-level', 'warn'];
  args.push(...(options.uiPort ? ['--ui-port', String(options.uiPort)] : ['--headless']));
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  for (const attribute of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${attribute.name}=${KEYWORD}`);

  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A parent that exits without stop() (a forced second Ctrl-C, a crash) must not leave the server running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const log = options.log ?? (() => undefined);
  child.stdout?.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
  child.stderr?.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`temporal server start-dev exited early with code ${code}`))),
  );
  exited.catch(() => undefined);
  try {
    await Promise.race([waitForPort(port, 60_000).then(() => waitUntilServing(address, 60_000)), exited]);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return {
    address,
    namespace,
    ...(options.uiPort ? { uiUrl: `http://127.0.0.1:${options.uiPort}` } : {}),
    stop: () => stopChild(child),
  };
}

async function startFromSdkDownload(port: number, options: DevServerOptions): Promise<RunningTemporal> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download' },
      ip: '127.0.0.1',
      port,
      ui: Boolean(options.uiPort),
      ...(options.uiPort ? { uiPort: options.uiPort } : {}),
      ...(options.dbFile ? { dbFilename: options.dbFile } : {}),
      searchAttributes: SEARCH_ATTRIBUTES,
    },
  });
  return {
    address: `127.0.0.1:${port}`,
    namespace: env.namespace ?? 'default',
    ...(options.uiPort ? { uiUrl: `http://127.0.0.1:${options.uiPort}` } : {}),
    stop: () => env.teardown(),
  };
}
