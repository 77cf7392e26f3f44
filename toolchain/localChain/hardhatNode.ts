import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../paths';
import { freePort } from '../ports';

export interface HardhatNode {
  rpcUrl: string;
  chainId: number;
  /** Terminates the node and resolves once its process has exited. Safe to call more than once. */
  stop(): Promise<void>;
}

export const HARDHAT_CHAIN_ID = 31337;

const READY_MARKER = 'Started HTTP and WebSocket JSON-RPC server at';
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_CHARS = 8_000;
const PORT_ATTEMPTS = 3;

const configPath = fileURLToPath(new URL('./hardhat.config.cjs', import.meta.url));

// A parent that is SIGKILLed (a test worker, a killed `npm start`) never runs its exit handlers, and a Hardhat node
// never exits on its own. The parent holds the write end of the node's stdin and the kernel closes it however the
// parent dies, so the node exits on EOF. `node -e` leaves no script path in argv, and Hardhat's CLI parses argv
// from index 2. Resolved on first use: Hardhat is a devDependency, and importing this module must not need it.
function launcher(): string {
  const hardhatCli = createRequire(import.meta.url).resolve('hardhat/internal/cli/bootstrap.js');
  return [
    `process.stdin.on('end', () => process.exit(0)).resume();`,
    `process.argv.splice(1, 0, ${JSON.stringify(hardhatCli)});`,
    `require(${JSON.stringify(hardhatCli)});`,
  ].join(' ');
}

class PortTakenError extends Error {}

export interface HardhatNodeOptions {
  /** Loopback port to listen on; omitted or 0: a free one. */
  port?: number;
  startupTimeoutMs?: number;
  /** Omitted: 31337, Hardhat's own. Another id gives a second chain that differs from the first as two real chains do. */
  chainId?: number;
}

/**
 * Starts `hardhat node` (chain id 31337 unless told otherwise, automine on, the 20 funded default accounts) on a loopback port.
 * A child process rather than an in-process server: Hardhat keeps one runtime environment per process, and a
 * separate process can be killed outright however its parent ends.
 */
export async function startHardhatNode({
  port: fixedPort,
  startupTimeoutMs = 30_000,
  chainId = HARDHAT_CHAIN_ID,
}: HardhatNodeOptions = {}): Promise<HardhatNode> {
  if (!Number.isSafeInteger(chainId) || chainId < 1) throw new RangeError(`chainId must be a positive integer, got ${chainId}`);
  if (fixedPort) {
    try {
      return await launch(fixedPort, startupTimeoutMs, chainId);
    } catch (error) {
      if (error instanceof PortTakenError) throw new Error(`cannot start the local chain: 127.0.0.1:${fixedPort} is already in use`);
      throw error;
    }
  }
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await launch(port, startupTimeoutMs, chainId);
    } catch (error) {
      // freePort() cannot reserve the port, so another process may take it before Hardhat binds it.
      if (!(error instanceof PortTakenError) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function launch(port: number, startupTimeoutMs: number, chainId: number): Promise<HardhatNode> {
  const child = spawn(
    process.execPath,
    ['-e', launcher(), 'node', '--config', configPath, '--hostname', '127.0.0.1', '--port', String(port)],
    // Hardhat refuses to run unless the working directory resolves its own local installation.
    { cwd: projectRoot, env: hardhatEnv(chainId), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let tail = '';
  const remember = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', remember);
  child.stderr?.on('data', remember);

  const stop = async () => {
    process.off('exit', killOnExit);
    await terminate(child);
  };

  try {
    await waitUntilReady(child, () => tail, startupTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { rpcUrl: `http://127.0.0.1:${port}`, chainId, stop };
}

function waitUntilReady(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onData = () => {
      if (output().includes(READY_MARKER)) settle();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      const text = output();
      const message = `hardhat node exited during startup (code ${code}, signal ${signal}):\n${text}`;
      settle(text.includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message));
    };
    const onError = (error: Error) => settle(error);
    const timer = setTimeout(() => settle(new Error(`hardhat node did not start within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const escalation = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(escalation);
  }
}

function hardhatEnv(chainId: number): NodeJS.ProcessEnv {
  // An inherited HARDHAT_NETWORK or similar would silently reconfigure the node, so none are passed on.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARDHAT_')));
  return {
    ...inherited,
    // CI=true keeps Hardhat from asking for telemetry consent and from fetching its banner and version notices.
    CI: 'true',
    HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
    NO_COLOR: '1',
    // Read by hardhat.config.cjs; set here, after the inherited HARDHAT_* are dropped, so only this option sets it.
    HARDHAT_LOCAL_CHAIN_ID: String(chainId),
  };
}
