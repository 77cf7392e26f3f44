// What the API's own secrets (the session-token secret, the TOTP encryption key) share: each is configured wherever
// it matters, in production and once a live API key exists; otherwise one is generated and kept in the data
// directory, so a restart keeps what was made with it. No secret is ever a constant in the source.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Queryable } from '../db/client';

export async function liveApiKeyExists(sql: Queryable): Promise<boolean> {
  const [live] = await sql<
    { exists: boolean }[]
  >`select exists (select 1 from api_keys where mode = 'live' and revoked_at is null) as exists`;
  return live?.exists ?? false;
}

/** The secret kept at storePath, made by `generate` and written owner-only on first use. */
export function keptSecret(storePath: string, generate: () => string): string {
  try {
    return readFileSync(storePath, 'utf8').trim();
  } catch {
    const secret = generate();
    mkdirSync(dirname(storePath), { recursive: true });
    // wx: two processes starting at once cannot overwrite each other's secret; the loser reads the winner's.
    try {
      writeFileSync(storePath, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return readFileSync(storePath, 'utf8').trim();
    }
  }
}
