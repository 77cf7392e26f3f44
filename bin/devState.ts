// Where a running `npm start` keeps its database and Temporal, for the admin CLI in another terminal: the dev
// command writes DATA_DIR/dev.json (the git-ignored .data/ by default) once the stack is up and removes it when
// it stops; the admin CLI, given no DATABASE_URL, uses that stack's, and says so on stderr.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/env';

const DevState = z.object({
  pid: z.number().int().positive(),
  databaseUrl: z.string().min(1),
  temporalAddress: z.string().min(1),
  temporalNamespace: z.string().min(1),
});
export type DevState = z.infer<typeof DevState>;

export const devStatePath = (dataDir: string): string => join(resolve(dataDir), 'dev.json');

/** Writes the state (readable by its owner only: the URL holds the database password); returns its remover. */
export function writeDevState(dataDir: string, state: DevState): () => void {
  const path = devStatePath(dataDir);
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The state of the `npm start` running on `dataDir`; undefined without one (a stale file of a killed one included). */
export function runningDevState(dataDir: string): DevState | undefined {
  let text: string;
  try {
    text = readFileSync(devStatePath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = DevState.safeParse(json);
  return parsed.success && isAlive(parsed.data.pid) ? parsed.data : undefined;
}

/**
 * The configuration with a running `npm start`'s database and Temporal when DATABASE_URL is unset (its Temporal
 * address and namespace only where TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE are unset too); unchanged otherwise.
 */
export function adoptRunningDevStack(config: Config, env: NodeJS.ProcessEnv, note: (line: string) => void): Config {
  if (config.databaseUrl) return config;
  const state = runningDevState(config.dataDir);
  if (!state) return config;
  note(
    `DATABASE_URL is unset: using the running npm start's database and Temporal (process ${state.pid}, ${devStatePath(config.dataDir)})`,
  );
  return {
    ...config,
    databaseUrl: state.databaseUrl,
    temporal: {
      ...config.temporal,
      // npm start's own dev server listens on loopback in plaintext: TEMPORAL_TLS_* are for the server TEMPORAL_ADDRESS names.
      ...(env.TEMPORAL_ADDRESS ? {} : { address: state.temporalAddress, tls: undefined, apiKey: undefined }),
      namespace: env.TEMPORAL_NAMESPACE ? config.temporal.namespace : state.temporalNamespace,
    },
  };
}
