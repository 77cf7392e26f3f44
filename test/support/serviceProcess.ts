// A service process (bin/*.ts) run the way its container runs it, as a child process: its stdout, the JSON log
// lines, is kept for the test to read; stop() sends a signal and resolves with the exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { projectRoot } from '../../toolchain/paths';

export interface ServiceProcess {
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves with the first line `match` accepts, or rejects when the process exits or `timeoutMs` passes. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startServiceProcess(script: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  const waiters = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line.length > 0));
    for (const wake of waiters) wake();
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  return {
    child,
    lines,
    waitForLine(match, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found !== undefined) {
            done();
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${script}: no matching line within ${timeoutMs} ms; output:\n${lines.join('\n')}\n${stderr}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        exited.then(([code]) => {
          if (waiters.has(check)) {
            done();
            reject(new Error(`${script} exited with ${code}; output:\n${lines.join('\n')}\n${stderr}`));
          }
        }, reject);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await exited;
      if (partial) lines.push(partial);
      return code;
    },
  };
}
