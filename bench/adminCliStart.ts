// The admin CLI's start-up, which every operator command and every test of test/bin/admin*.test.ts pays: wall time
// of a process from spawn to exit for `--help` and for a read command (`audit list`, one query on a fresh
// database), each beside a bare `node --import tsx` that runs nothing, the floor any TypeScript process here stands on.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchEnvironment } from './environment';
import { median, progress, type Row } from './report';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 7;
const run = promisify(execFile);

async function wallMs(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  await run(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
  return performance.now() - started;
}

export async function benchAdminCliStart(env: BenchEnvironment): Promise<Row[]> {
  progress(`admin CLI start-up: ${RUNS} runs each of bare node+tsx, --help and audit list, interleaved`);
  const database = await env.database(1);
  const processEnv = { DATABASE_URL: database.url, TEMPORAL_ADDRESS: env.temporalAddress };
  const commands = { bare: ['-e', '0'], help: ['bin/admin.ts', '--help'], read: ['bin/admin.ts', 'audit', 'list', '--limit', '1'] };
  const times: Record<keyof typeof commands, number[]> = { bare: [], help: [], read: [] };
  // One warm-up each, uncounted: the first run fills the OS file cache and tsx's transform cache.
  for (let round = 0; round <= RUNS; round++) {
    for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][]) {
      const ms = await wallMs(args, processEnv);
      if (round > 0) times[name].push(ms);
    }
  }
  const bare = median(times.bare);
  const row = (benchmark: string, values: number[]): Row => ({
    benchmark,
    figure: `median ${median(values).toFixed(0)} ms, ${(median(values) / bare).toFixed(1)} × bare node+tsx`,
    detail: `spawn to exit, ${RUNS} runs; bare \`node --import tsx -e 0\` median ${bare.toFixed(0)} ms in the same rounds`,
  });
  return [row('admin CLI --help', times.help), row('admin CLI read command (audit list)', times.read)];
}
