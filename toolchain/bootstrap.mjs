#!/usr/bin/env node
// Entry point of `npm start`, `npm test` and `npm run setup` on a fresh clone. It may only use Node
// built-ins: it is what installs the dependencies everything else needs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const command = process.argv[2];
const steps = {
  setup: [],
  start: [],
  demo: [['tsx', 'bin/demo.ts']],
  bench: [['tsx', 'bench/run.ts']],
  test: [['vitest', 'run']],
};

/**
 * What `npm test` checks before the tests, side by side: each is one process that keeps about one core busy, so on
 * two cores the four end in about half their time one after the other. Each one's output is printed whole as it
 * ends, never interleaved with another's, and the tests start only if all passed.
 */
const staticChecks = [
  // What tsc learnt last time is kept in .cache/ (git-ignored, per work tree): it checks again only what changed and
  // what depends on it (about 20 s down to 6 on an unchanged tree); a fresh clone, as CI's, checks everything.
  ['tsc', '--noEmit', '--incremental', '--tsBuildInfoFile', '.cache/tsc/tsconfig.tsbuildinfo'],
  ['eslint', '--max-warnings', '0', '.'],
  ['depcruise', '--config', '.dependency-cruiser.cjs', '.'],
  ['prettier', '--check', '.'],
];

if (!(command in steps)) {
  console.error(`usage: node toolchain/bootstrap.mjs ${Object.keys(steps).join('|')}`);
  process.exit(2);
}

function step(title) {
  console.log(`\n▶ ${title}`);
}

/** Runs the checks at once, printing each one's output as it ends; resolves with their exit codes and titles. */
function runSideBySide(commands) {
  return Promise.all(
    commands.map(
      ([bin, ...args]) =>
        new Promise((resolve) => {
          const begun = Date.now();
          const child = spawn(join(root, 'node_modules', '.bin', bin), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          const done = (code, error) => {
            const title = `${bin} ${args.join(' ')}`;
            step(`${title}: ${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
            process.stdout.write(Buffer.concat(output).toString() + (error ?? ''));
            resolve({ title, code });
          };
          child.once('error', (error) => done(1, `could not run ${bin}: ${error.message}\n`));
          child.once('close', (code) => done(code ?? 1));
        }),
    ),
  );
}

function run(bin, args, extraEnv = {}) {
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  if (result.error) {
    console.error(`✖ could not run ${bin}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Runs the dev stack, which orders its own shutdown (bin/shutdown.ts): API, workers and pools first, the servers
 * last. A terminal's Ctrl-C signals its whole foreground process group, so the embedded Postgres, Temporal and
 * Hardhat would stop at once, under the pools still using them. The stack runs in a process group of its own
 * (detached) and is signalled from here, once per signal: npm forwards the terminal's SIGINT to this process too,
 * so one Ctrl-C arrives twice, moments apart, and a second one would mean "stop now" (bin/shutdown.ts).
 * Node runs it with tsx's loader rather than through the tsx command, whose own signal relay is one layer more.
 * package.json's start script execs this file: dash, npm's script shell on Debian, would die of that Ctrl-C
 * and npm exit 130 with it. Resolves with the stack's exit code.
 */
function runOwningSignals(bin, args) {
  const child = spawn(bin, args, { cwd: root, stdio: 'inherit', detached: true });
  const SAME_KEYPRESS_MS = 300;
  const lastSeen = {};
  const forward = (signal) => {
    const now = Date.now();
    if (!(now - (lastSeen[signal] ?? 0) < SAME_KEYPRESS_MS)) child.kill(signal);
    lastSeen[signal] = now;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      console.error(`✖ could not run ${bin}: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 1)));
  });
}

// Installs only when package-lock.json changed since the last install: a warm run costs nothing.
// `npm install --no-save` rather than `npm ci`: it installs the lockfile's pinned versions without
// rewriting it, and tolerates what `npm ci` refuses here: the registry this project builds from lacks
// other platforms' optional builds (e.g. @swc/core for darwin and win32), so no lockfile can list them.
function ensureNodeModules() {
  const lock = readFileSync(join(root, 'package-lock.json'));
  const digest = createHash('sha256').update(lock).update(process.version).digest('hex');
  const stamp = join(root, 'node_modules', '.checkout-install-stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
    step('npm dependencies: up to date');
    return;
  }
  step('npm dependencies: installing from package-lock.json (first run takes about 2 minutes)');
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(stamp, digest);
}

const started = Date.now();
ensureNodeModules();
step('tools: Temporal CLI and Java time-skipping test server');
run(process.execPath, ['--import', 'tsx', 'toolchain/provision.ts']);
if (command === 'test') {
  step(`static checks side by side: ${staticChecks.map(([bin]) => bin).join(', ')}`);
  const results = await runSideBySide(staticChecks);
  const failed = results.filter((result) => result.code !== 0);
  if (failed.length > 0) {
    console.error(`\n✖ failed: ${failed.map((result) => result.title.split(' ')[0]).join(', ')}`);
    process.exit(1);
  }
}
for (const [bin, ...args] of steps[command]) {
  step(`${bin} ${args.join(' ')}`);
  run(join(root, 'node_modules', '.bin', bin), args);
}
if (command === 'start') {
  step('bin/dev.ts');
  process.exit(await runOwningSignals(process.execPath, ['--import', 'tsx', 'bin/dev.ts']));
}
if (command === 'setup' || command === 'test') console.log(`\n✔ ${command} finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
