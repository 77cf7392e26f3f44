// The API's session-token signing secret. Configured (SESSION_TOKEN_SECRET, checked for strength by
// config/env.ts) wherever it matters: in production, and as soon as a live API key exists, the API refuses
// to start without one. In development it is generated once and kept in the data directory, so restarts keep
// the hosted page's links valid; no secret is ever a constant in the source.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';
import { ConfigError, type Config } from '../config/env';
import { keptSecret, liveApiKeyExists } from './keptSecret';

export async function resolveSessionTokenSecret(
  config: Pick<Config, 'appEnv' | 'sessionTokenSecret'>,
  sql: Queryable,
  /** Where a generated secret is kept; none: a fresh one for this process only. */
  storePath: string | undefined,
): Promise<string> {
  if (config.sessionTokenSecret) return config.sessionTokenSecret;
  if (config.appEnv === 'production')
    throw new ConfigError('invalid configuration: SESSION_TOKEN_SECRET: is required when APP_ENV=production');
  if (await liveApiKeyExists(sql)) {
    throw new ConfigError(
      'invalid configuration: SESSION_TOKEN_SECRET: is required once a live API key exists (32+ random characters, e.g. `openssl rand -hex 32`)',
    );
  }
  const generate = () => randomBytes(32).toString('hex');
  return storePath ? keptSecret(storePath, generate) : generate();
}
