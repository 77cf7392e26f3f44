// The admin CLI against a test service's database and the run's Temporal server, run as `checkout-admin` runs a
// command line (bin/admin/runAdmin.ts) with exactly the environment given here, and its output captured. By default
// in the test's own process: a child process per command costs seconds of start-up, and the files that drive the
// CLI run hundreds of commands. `{ process: true }` runs the real binary (`node --import tsx bin/admin.ts …`), for
// what only a process shows: its exit code and what reaches its stdout and stderr.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';
import { runAdmin } from '../../bin/admin/runAdmin';
import type { TestService } from './service';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface AdminCli {
  run(args: string[], env?: Record<string, string>): Promise<CliRun>;
  /** Runs with --json, expects success, returns the parsed output. */
  json(args: string[]): Promise<Record<string, unknown>>;
}

function runInProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = { out: (text: string) => void (stdout += `${text}\n`), err: (text: string) => void (stderr += `${text}\n`) };
  return runAdmin(args, env, io).then((code) => ({ code, stdout, stderr }));
}

function runInChildProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise<CliRun>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { cwd: ROOT, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `service` is read at each call, so a file can create the CLI before its beforeAll started the service. */
export function adminCli(service: () => TestService, options: { process?: boolean } = {}): AdminCli {
  const run = (args: string[], env: Record<string, string> = {}) =>
    (options.process ? runInChildProcess : runInProcess)(args, {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: service().db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: service().config.temporal.taskQueue,
      ...env,
    });
  return {
    run,
    async json(args) {
      const result = await run([...args, '--json']);
      expect(
        result.stderr.split('\n').filter((l) => l && !l.startsWith('warning:')),
        result.stderr,
      ).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    },
  };
}

/** A refusal: the expected exit code and exactly one line on stderr, with no stack trace. */
export function expectOneLineError(run: CliRun, code: number, pattern: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}
